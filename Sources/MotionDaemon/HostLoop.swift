import MotionGestures
import MotionHost
import MotionInput
import MotionLua

/// The daemon's loop: a replay of an event file through every plugin (deterministic: the same
/// lines every time), or live input with the config folder watched.
public enum HostLoop {
    /// Loads every plugin, feeds each frame of `source` to all of them, then lets scheduled
    /// work settle. Stops early at SIGINT/SIGTERM or when the output cannot be written
    /// (`PluginHost.stopReason`).
    public static func replay(_ source: FrameSource, host: PluginHost) throws {
        host.loadAll()
        defer { host.close() }
        while host.stopReason == nil, let frame = try source.nextFrame() {
            if Interruption.isRequested { return }
            host.handle(frame)
        }
        if Interruption.isRequested || host.stopReason != nil { return }
        host.finish()
        host.router.flush()
    }

    /// How often the config folder is looked at while input is quiet, for a frame source that
    /// cannot add the watcher's descriptor to its wait (the input hub can: then no interval).
    public static let watchInterval = 0.1

    /// Live input until SIGINT/SIGTERM (or the end of every device given by path): frames go to
    /// every plugin as they come, scheduled work runs on time, and the folder's changes load,
    /// reload and unload plugins between frames. Returns why input ended.
    /// `focus`: the desktop provider (its socket already in the hub's wait), polled when a
    /// reconnection falls due. `clock`: monotonic seconds, what the watcher's quiet time is
    /// measured on (tests inject one).
    public static func runLive(_ device: LiveFrameSource, host: PluginHost, watcher: ConfigWatcher?,
                               focus: LiveFocus? = nil, clock: @escaping () -> Double = Clock.monotonic) throws -> String {
        host.inputTimeNow = { [unowned device] in device.inputTimeNow() }
        if let watcher {
            host.onPluginsChanged = { [unowned host] in watcher.watch(host.watchedFiles) }
        }
        host.loadAll()
        watcher?.watch(host.watchedFiles)
        if host.plugins.isEmpty {
            host.router.diagnostic(nil, "no plugins in \(host.folder.path) yet; add a .lua file there")
        }
        defer { host.close() }
        // The watcher's descriptor joins the input's one wait: a change wakes it, no polling.
        var interval: Double? = watcher == nil ? nil : watchInterval
        let hub = device as? LiveDeviceSet
        let token = watcher.flatMap { watcher in hub?.watch(fd: watcher.descriptor) { watcher.read(now: clock()) } }
        defer { if let token { hub?.unwatch(token) } }
        if token != nil { interval = nil }
        let loop = LiveLoop(device: device)
        loop.hostDue = { focus?.secondsUntilDue }
        while true {
            var wait = interval
            // The clock is read only while a change waits (a system call per frame where the
            // clock source has no vDSO).
            if let watcher, watcher.hasPending, let due = watcher.dueIn(now: clock()) { wait = min(wait ?? due, due) }
            let step = try loop.step(host, maxWait: wait)
            try focus?.pollIfDue()
            host.router.flush()
            if let reason = host.stopReason { return reason }
            if case .end(let reason) = step {
                host.finish()
                host.router.flush()
                return reason
            }
            // In the hub's wait, the watcher is read when it is readable: no read per frame.
            let files: [String]?
            if let watcher {
                files = token != nil ? (watcher.hasPending ? watcher.take(now: clock()) : nil) : watcher.poll(now: clock())
            } else {
                files = nil
            }
            if let files {
                host.filesChanged(files)
                host.router.flush()
            }
        }
    }
}
