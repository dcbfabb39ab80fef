import MotionActions
import MotionGestures
import MotionPluginHost
import MotionInput
import MotionLua

/// The daemon's loop: a replay of an event file through every plugin (deterministic: the same
/// lines every time), or live input with the config folder watched.
public enum HostLoop {
    /// Loads every plugin, feeds each frame of `source` to all of them, then lets scheduled
    /// work settle. Stops early at SIGINT/SIGTERM or when the output cannot be written
    /// (`PluginHost.stopReason`).
    /// `proxy`: the clones' decisions beside (`--proxy`, `ProxyReplay`), made after the plugins loaded.
    public static func replay(_ source: FrameSource, host: PluginHost,
                              proxy: ((PluginHost) throws -> ProxyReplay)? = nil) throws {
        host.loadAll()
        defer { host.close() }
        do {
            // The plugins keep their errors; no time limit over the whole replay (each call
            // into a plugin has its own).
            if let proxy {
                try Replay.feed(source, to: ProxiedTarget(host, proxy: try proxy(host)), timeout: 0)
            } else {
                try Replay.feed(source, to: host, timeout: 0)
            }
        } catch is ScriptError where Interruption.isRequested {
            // Stopped by a signal or a failed write: the host ends quietly, saying nothing more.
            return
        }
        host.router.flush()
    }

    /// Live input until SIGINT/SIGTERM (or the end of every device given by path): frames go to
    /// every plugin as they come, scheduled work runs on time, and the folder's changes load,
    /// reload and unload plugins between frames. Returns why input ended.
    /// (The desktop provider, `LiveFocus`, is registered with the device's event loop: its
    /// socket and its reconnection's due time.) `clock`: monotonic seconds, what the watcher's
    /// quiet time is measured on (tests inject one).
    /// `chain`: what each frame goes through to `host` (`FrameChain`: the emergency gesture,
    /// `--proxy`'s clones; `LiveInput.chain`), its target `host`. Nil: straight to the host.
    public static func runLive(_ device: LiveFrameSource, host: PluginHost, watcher: ConfigWatcher?,
                               chain: FrameChain<PluginHost>? = nil,
                               clock: @escaping () -> Double = Clock.monotonic) throws -> String {
        precondition(chain.map { $0.target === host } ?? true, "the chain feeds another host")
        host.inputTimeNow = { [unowned device] in device.inputTimeNow() }
        // A plugin's `motion.exec` child that fails says so in the plugin's log (`ctl logs`),
        // tagged with its name: the reaper's thread posts, the loop's thread writes the log.
        // (Without an eventfd, as when out of descriptors, they go to stderr as before.)
        let childEnds = device.eventLoop.flatMap { loop in
            try? LoopMailbox<ChildEnd>(loop: loop, deliver: { [unowned host] in host.router.diagnostic($0.plugin, $0.line) },
                                      dropped: { ChildEnd(plugin: nil, line: "warning: \($0) more failed ends of exec commands were not kept (too many at once)") },
                                      orphan: { ProcessLauncher.reportToStderr(($0.plugin ?? "motionscript") + ": " + $0.line) })
        }
        if let childEnds {
            host.childEnded = { plugin in { line in childEnds.post(ChildEnd(plugin: plugin, line: line)) } }
        }
        if let watcher {
            host.onPluginsChanged = { [unowned host] in watcher.watch(host.watchedFiles) }
        }
        host.loadAll()
        watcher?.watch(host.watchedFiles)
        if host.plugins.isEmpty {
            host.router.diagnostic(nil, "no plugins in \(host.folder.path) yet; add a .lua file there")
        }
        defer { host.close() }
        // Closed before the host (the later defer runs first): what waits still reaches the log.
        defer { childEnds?.close() }
        let loop = LiveLoop(device: device)
        // The watcher's poll is the loop's only while it has work (`FolderReloads.attach`).
        let reloads = watcher.map { FolderReloads($0, host: host, device: device, clock: clock) }
        defer { reloads?.close() }
        reloads?.attach(to: loop)
        // A failed write stops the host (`PluginHost.stopReason`): the loop ends at the next step.
        // The loop is given the question when the host stops, so a step asks nothing of the
        // host while it runs.
        let stopped = { [unowned loop, unowned host] in loop.stopReason = { host.stopReason } }
        host.onStop = stopped
        defer { host.onStop = nil }
        if host.stopReason != nil { stopped() }
        // With a watcher its `poll`, which the loop calls right after, does this first (one call
        // into the host per step rather than two); as input ends, `host.close` flushes.
        if reloads == nil {
            loop.afterStep = { host.router.flush() }
        }
        // The plugins keep their errors to themselves (`Plugin`): the host throws none.
        return try loop.run(chain ?? FrameChain(target: host))
    }
}

/// A plugin's `motion.exec` child that failed (`exec […]: exited with status N`), on its way
/// from the reaper's thread to the plugin's log.
struct ChildEnd: Sendable {
    let plugin: String?
    let line: String
}
