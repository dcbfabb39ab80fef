import Foundation
import MotionDesktop
import MotionGestures
import MotionInput

/// The desktop's focused application in a live run: the `FocusTracker`'s socket is one more
/// descriptor in the input hub's single wait (`LiveDeviceSet.watch`), so a focus change is
/// handled as soon as it arrives and never delays input; while the desktop is away, the loop
/// wakes when the next reconnection is due (`secondsUntilDue`, `pollIfDue`).
public final class LiveFocus {
    public let tracker: FocusTracker
    private let device: LiveDeviceSet
    private let deliver: (AppInfo?) throws -> Void
    private var watched: (fd: Int32, writing: Bool, token: WatchToken)?

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
    public init(tracker: FocusTracker, device: LiveDeviceSet, deliver: @escaping (AppInfo?) throws -> Void) throws {
        self.tracker = tracker
        self.device = device
        self.deliver = deliver
        try poll()
    }

    /// Reads the tracker (its socket was readable, or a reconnection fell due) and delivers the changes.
    public func poll() throws {
        let changes = tracker.poll()
        rewatch()
        for change in changes { try deliver(change) }
    }

    /// Seconds until the tracker needs a poll without its socket being readable (nil: never).
    public var secondsUntilDue: Double? {
        tracker.nextWakeTime.map { max(0, $0 - Clock.monotonic()) }
    }

    public func pollIfDue() throws {
        if let due = secondsUntilDue, due <= 0 { try poll() }
    }

    /// Keeps the hub's wait on the tracker's current connection (a reconnection has a new
    /// descriptor; a D-Bus connection with something to write waits for POLLOUT too).
    private func rewatch() {
        let fd = tracker.fileDescriptor
        let writing = tracker.wantsToWrite
        if let watched, watched.fd != fd || watched.writing != writing {
            device.unwatch(watched.token)
            self.watched = nil
        }
        if let fd, watched == nil {
            let events = Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
            watched = (fd, writing, device.watch(fd: fd, events: events) { [unowned self] in try poll() })
        }
    }

    public func close() {
        if let watched { device.unwatch(watched.token) }
        watched = nil
        tracker.close()
    }
}
