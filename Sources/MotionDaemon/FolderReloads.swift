import MotionHost
import MotionInput

/// The config folder's changes between the live loop's steps: plugins load, reload and unload.
/// With the input hub the watcher's descriptor is in its one wait (a change wakes it, no
/// polling); the quiet period after a burst is waited out by the loop's wait, never by
/// blocking input (frames keep reaching every plugin).
final class FolderReloads: LiveReloads {
    let watcher: ConfigWatcher
    unowned let host: PluginHost
    /// `host`, reached after every step without a retain and a release (the host outlives the
    /// loop, whose steps end before it goes).
    private let hostRef: Unmanaged<PluginHost>
    private let hub: LiveDeviceSet?
    private let token: WatchToken?
    /// The desktop provider, polled when a reconnection falls due (nil: none).
    private let focus: LiveFocus?
    /// Monotonic seconds, what the quiet time is measured on (tests inject one).
    private let clock: () -> Double

    init(_ watcher: ConfigWatcher, host: PluginHost, device: LiveFrameSource, focus: LiveFocus? = nil,
         clock: @escaping () -> Double = Clock.monotonic) {
        self.watcher = watcher
        self.host = host
        hostRef = Unmanaged.passUnretained(host)
        self.focus = focus
        self.clock = clock
        hub = device as? LiveDeviceSet
        token = hub?.watch(fd: watcher.descriptor) { watcher.read(now: clock()) }
    }

    /// The longest wait: until the quiet time of a pending change ends, or the desktop
    /// provider's reconnection falls due (what the loop's `hostDue` would say).
    var maxWait: Double? {
        // A frame source that cannot add the watcher to its wait is looked at every interval.
        var wait = token == nil ? HostLoop.watchInterval : nil
        if let focus, let due = focus.secondsUntilDue { wait = min(wait ?? due, due) }
        // The clock is read only while a change waits (a system call per frame where the
        // clock source has no vDSO).
        if watcher.hasPending, let due = watcher.dueIn(now: clock()) { wait = min(wait ?? due, due) }
        return wait
    }

    /// After every step: the end of the step's work (the desktop provider's reconnection when
    /// due, the output flushed), then the folder's changes.
    func poll() throws {
        try focus?.pollIfDue()
        hostRef._withUnsafeGuaranteedRef { $0.router.flush() }
        // In the hub's wait, the watcher is read when it is readable: no read per frame.
        let files = token != nil ? (watcher.hasPending ? watcher.take(now: clock()) : nil) : watcher.poll(now: clock())
        guard let files else { return }
        host.filesChanged(files)
        host.router.flush()
    }

    func close() {
        if let token { hub?.unwatch(token) }
    }
}
