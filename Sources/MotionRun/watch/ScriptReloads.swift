import MotionPluginHost
import MotionInput

/// `run --watch` on live input, between the live loop's steps: the script's file watcher. Its
/// descriptors are registered with the input's event loop (no polling interval; the watcher is
/// read only when one of them was ready); a source without an event loop gets no reloads. A
/// change waits out the reloads' quiet time (`QuietTime`, the daemon's too) in the loop's own
/// wait (`maxWait`), never by holding input: frames meanwhile go to the running version, and
/// the first frame after the reload to the new one. A stop (Ctrl-C, `WatchSession.stop`) ends
/// input as it ends unwatched: the pointers still down are cancelled and what is scheduled settles.
final class ScriptReloads: LiveReloads {
    private unowned let session: WatchSession
    private let device: LiveFrameSource
    private let hub: EventLoop?
    /// Monotonic seconds, what the quiet time is measured on (`WatchOptions.clock`).
    private let clock: () -> Double
    private var burst: QuietTime
    private var watcherReady = true
    private var stopping = false
    private var stopToken: EventLoop.Registration?
    private var tokens: [EventLoop.Registration] = []

    init(session: WatchSession, device: LiveFrameSource) {
        self.session = session
        self.device = device
        clock = session.watchOptions.clock
        burst = QuietTime(seconds: session.watchOptions.debounce)
        hub = device.eventLoop
        guard let hub else { return }
        let watcher = session.watcher
        tokens.append(hub.register(fd: watcher.changeDescriptor) { [unowned self] in
            if watcher.hasChanged() { watcherReady = true }
        })
        let token = hub.register(fd: watcher.stopDescriptor) { [unowned self] in watcherReady = true }
        stopToken = token
        tokens.append(token)
    }

    /// The longest wait: until the quiet time of a pending change ends (nil: none pending; a
    /// change wakes the loop's wait).
    var maxWait: Double? { burst.hasPending ? burst.dueIn(now: clock()) : nil }

    func poll() {
        if stopping { return }
        if watcherReady {
            watcherReady = false
            switch session.watcher.wait(debounce: 0, timeout: 0) {
            case .stopped:
                // The stop pipe stays readable: out of the hub's wait from now on.
                if let hub, let stopToken { hub.unregister(stopToken) }
                // Input ends as it does unwatched, so the last frames must not be interrupted in turn.
                if Interruption.isRequested { Interruption.disarm() }
                stop()
                return
            case .changed(let files):
                burst.note(files, now: clock())
            case .timedOut:
                break
            }
        }
        if burst.hasPending, burst.take(now: clock()) != nil { session.reload() }
    }

    private func stop() {
        stopping = true
        device.stop()
    }

    func close() {
        if let hub { tokens.forEach(hub.unregister) }
        tokens = []
    }
}
