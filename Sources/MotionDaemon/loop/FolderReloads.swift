import MotionPluginHost
import MotionInput
import MotionStreams

/// The config folder's changes between the live loop's steps: plugins load, reload and unload.
/// The watcher's descriptor is registered with the input's event loop (a change wakes its one
/// wait, no polling); the quiet period after a burst is waited out by the loop's wait, never
/// by blocking input (frames keep reaching every plugin).
final class FolderReloads: LiveReloads {
    let watcher: ConfigWatcher
    unowned let host: PluginHost
    /// `host`, reached after every step without a retain and a release (the host outlives the
    /// loop, whose steps end before it goes).
    private let hostRef: Unretained<PluginHost>
    private let eventLoop: EventLoop?
    private var token: EventLoop.Registration?
    /// The loop whose `reloads` this is while it has work (`attach`).
    private weak var loop: LiveLoop?
    /// Monotonic seconds, what the quiet time is measured on (tests inject one).
    private let clock: () -> Double

    init(_ watcher: ConfigWatcher, host: PluginHost, device: LiveFrameSource,
         clock: @escaping () -> Double = Clock.monotonic) {
        self.watcher = watcher
        self.host = host
        hostRef = Unretained(host)
        self.clock = clock
        eventLoop = device.eventLoop
        token = eventLoop?.register(fd: watcher.descriptor) { [unowned self] in
            watcher.read(now: clock())
            if watcher.hasPending { loop?.reloads = self }
        }
    }

    /// Makes this the loop's `reloads` whenever it has work, and only then: a folder change
    /// read from the loop's wait (its quiet time then bounds the loop's waits), output that
    /// needs a flush after every step (a blocking sink). Otherwise the loop's steps ask nothing
    /// of it: no call, no retain. (A frame source without an event loop, `LiveFrameSource.eventLoop`
    /// nil, gets no reloads: nothing is polled.)
    func attach(to loop: LiveLoop) {
        self.loop = loop
        loop.reloads = hasWork ? self : nil
    }

    private var hasWork: Bool { host.router.flushes || watcher.hasPending }

    /// The longest wait: until the quiet time of a pending change ends.
    var maxWait: Double? {
        var wait: Double?
        // The clock is read only while a change waits (a system call per frame where the
        // clock source has no vDSO).
        if watcher.hasPending, let due = watcher.dueIn(now: clock()) { wait = min(wait ?? due, due) }
        return wait
    }

    /// After every step: the end of the step's work (the output flushed), then the folder's changes.
    func poll() throws {
        hostRef.with { $0.router.flush() }
        // The watcher is read when the loop finds it readable: no read per frame.
        if watcher.hasPending, let files = watcher.take(now: clock()) {
            host.filesChanged(files)
            host.router.flush()
        }
        if !hasWork { loop?.reloads = nil }
    }

    func close() {
        if let token { eventLoop?.unregister(token) }
    }
}
