import Foundation
import MotionDesktop
import MotionGestures
import MotionInput

/// The desktop's focused application in a live run: the `FocusTracker`'s socket is registered
/// with the event loop (the input's one wait), so a focus change is handled as soon as it
/// arrives and never delays input; while the desktop is away, a timer registered with the loop
/// runs the next reconnection when it is due.
public final class LiveFocus {
    public let tracker: FocusTracker
    private let loop: EventLoop
    private let deliver: (AppInfo?) throws -> Void
    private var watched: (fd: Int32, registration: EventLoop.Registration)?
    /// The reconnection's due time, a timer of the loop.
    private var due: EventLoop.Registration?

    /// The tracker for `--app-provider` (nil: from the environment), or nil when there is
    /// none; a provider that cannot be used is a warning.
    public static func tracker(provider: String?, diagnostics: @escaping (String) -> Void) -> FocusTracker? {
        switch FocusProviderChoice.source(forced: provider, environment: ProcessInfo.processInfo.environment) {
        case .success(let source?):
            return FocusTracker(source: source, diagnostics: diagnostics)
        case .success(nil):
            return nil
        case .failure(let error):
            diagnostics("warning: \(error); recognizers with 'apps' do not begin")
            return nil
        }
    }

    /// Feeds `tracker`'s changes to `deliver` (a runtime's `setFocusedApp`), connecting now.
    public init(tracker: FocusTracker, loop: EventLoop, deliver: @escaping (AppInfo?) throws -> Void) throws {
        self.tracker = tracker
        self.loop = loop
        self.deliver = deliver
        try poll()
    }

    /// Reads the tracker (its socket was readable, or a reconnection fell due) and delivers the changes.
    public func poll() throws {
        let changes = tracker.poll()
        rewatch()
        for change in changes { try deliver(change) }
    }

    /// Keeps the loop's wait on the tracker's current connection (a reconnection has a new
    /// descriptor), and its timer on the next reconnection (the tracker's wake time is on
    /// CLOCK_MONOTONIC, as the loop's timers).
    private func rewatch() {
        let fd = tracker.fileDescriptor
        if let watched, watched.fd != fd {
            loop.unregister(watched.registration)
            self.watched = nil
        }
        if let fd, watched == nil {
            watched = (fd, loop.register(fd: fd) { [unowned self] in try poll() })
        }
        if let due {
            loop.reschedule(due, at: tracker.nextWakeTime)
        } else if let at = tracker.nextWakeTime {
            due = loop.register(at: at) { [unowned self] in try poll() }
        }
    }

    public func close() {
        if let watched { loop.unregister(watched.registration) }
        if let due { loop.unregister(due) }
        watched = nil
        due = nil
        tracker.close()
    }
}
