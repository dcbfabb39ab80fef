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
    private var watched: (fd: Int32, writing: Bool, registration: EventLoop.Registration)?
    /// The reconnection's due time, a timer of the loop.
    private var due: EventLoop.Registration?

    /// The tracker for `--app-provider` (nil: from the environment), or nil when there is
    /// none; a provider that cannot be used is a warning.
    public static func tracker(provider: String?, diagnostics: @escaping (String) -> Void) -> FocusTracker? {
        choice(provider: provider, diagnostics: diagnostics).source.map { FocusTracker(source: $0, diagnostics: diagnostics) }
    }

    /// The provider for `--app-provider` (nil: from the environment) and why; one that cannot
    /// be used (its variables are missing, it is not built) is a warning, and no provider.
    public static func choice(provider: String?, diagnostics: (String) -> Void) -> FocusChoice {
        switch FocusProviderChoice.choose(forced: provider, environment: ProcessInfo.processInfo.environment) {
        case .success(let choice):
            return choice
        case .failure(let error):
            diagnostics("warning: \(error); recognizers whose 'apps' name applications do not begin")
            return FocusChoice(source: nil, provider: "none", reason: "\(error)")
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
    /// descriptor; a D-Bus connection with something to write waits for POLLOUT too), and its
    /// timer on the next reconnection (the tracker's wake time is on CLOCK_MONOTONIC, as the
    /// loop's timers).
    private func rewatch() {
        let fd = tracker.fileDescriptor
        let writing = tracker.wantsToWrite
        if let watched, watched.fd != fd || watched.writing != writing {
            loop.unregister(watched.registration)
            self.watched = nil
        }
        if let fd, watched == nil {
            let events = Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
            watched = (fd, writing, loop.register(fd: fd, events: events) { [unowned self] in try poll() })
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
