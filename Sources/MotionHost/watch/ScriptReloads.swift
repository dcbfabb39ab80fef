import MotionInput

/// `run --watch` on live input, between the live loop's steps: the script's file watcher. Its
/// descriptors are registered with the input's event loop (no polling interval; the watcher is
/// asked only when one of them was ready); a source without an event loop gets no reloads. A stop (Ctrl-C, `WatchSession.stop`) ends input as it ends unwatched: the
/// pointers still down are cancelled and what is scheduled settles.
final class ScriptReloads: LiveReloads {
    private unowned let session: WatchSession
    private let device: LiveFrameSource
    private let hub: EventLoop?
    private var watcherReady = true
    private var stopping = false
    private var stopToken: EventLoop.Registration?
    private var tokens: [EventLoop.Registration] = []

    init(session: WatchSession, device: LiveFrameSource) {
        self.session = session
        self.device = device
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

    /// Nothing to wait out: a change wakes the loop's wait.
    var maxWait: Double? { nil }

    func poll() {
        if stopping { return }
        guard watcherReady else { return }
        watcherReady = false
        switch session.watcher.wait(debounce: session.watchOptions.debounce, timeout: 0) {
        case .stopped:
            // The stop pipe stays readable: out of the hub's wait from now on.
            if let hub, let stopToken { hub.unregister(stopToken) }
            // Input ends as it does unwatched, so the last frames must not be interrupted in turn.
            if Interruption.isRequested { Interruption.disarm() }
            stop()
        case .changed:
            if !session.reloadAfterQuiet(stopping: device) { stopping = true }
        case .timedOut:
            break
        }
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
