#if canImport(Glibc)
import Glibc
#endif
import MotionGestures
import MotionHost
import MotionLua

/// Every plugin of a config folder, each in a Lua state of its own, fed the same frames in
/// name order. What one plugin does wrong stays with it (`Plugin`); the host never throws for
/// a plugin. It is a `LiveTarget`: a live loop or a replay feeds it as it would one script.
/// `PluginControl` is the surface a control server calls.
public final class PluginHost: LiveTarget {
    public let folder: ConfigFolder
    public let router: OutputRouter
    /// Limits for plugins without their own header (`--timeout`, `--memory`).
    public var defaults: PluginLimits
    /// What every plugin's pipeline starts from: input options, the shared action host.
    let options: RunOptions
    /// Loaded plugins (running, failed or disabled), in name order.
    public private(set) var plugins: [Plugin] = []
    /// Input time now: the last frame's, or what time advanced to.
    public private(set) var time = 0.0
    /// Live input: the input time on the device's clock (a plugin loaded later starts there).
    public var inputTimeNow: (() -> Double?)?
    /// The live device, whose description sizes `motion.screen` for `--surface mm`.
    public var screenSource: AnyObject?
    /// `pause()`: frames reach no plugin.
    public internal(set) var isPaused = false
    /// Ends the process when a plugin hangs outside Lua, recording it (nil: no watchdog).
    public var watchdog: PluginWatchdog?
    /// Where the plugin that hung the daemon is recorded; such a plugin is not loaded again
    /// until its file changes.
    public var hangRecord: HangRecord?
    /// Called after plugins loaded, reloaded or unloaded (the watcher's file list changes).
    public var onPluginsChanged: (() -> Void)?

    public init(folder: ConfigFolder, options: RunOptions, router: OutputRouter, defaults: PluginLimits = PluginLimits()) {
        self.folder = folder
        self.options = options
        self.router = router
        self.defaults = defaults
    }

    public func plugin(named name: String) -> Plugin? { plugins.first { $0.name == name } }

    /// Input time now for a lifecycle line or a new version: the device's clock when it has
    /// one, never earlier than a time already given (a device that went away has none).
    var now: Double {
        time = max(time, inputTimeNow?() ?? time)
        return time
    }

    /// Loads every plugin in the folder, in name order.
    public func loadAll() {
        for (name, path) in folder.plugins() where plugin(named: name) == nil {
            add(name: name, path: path)
        }
    }

    private func add(name: String, path: String) {
        let plugin = Plugin(name: name, path: path, options: options, router: router, limits: defaults)
        plugin.pipeline.screenSource = screenSource
        plugin.pipeline.inputTimeNow = { [unowned self] in now }
        plugin.watchdog = watchdog
        plugin.hangRecord = hangRecord
        plugins.append(plugin)
        plugins.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        load(plugin)
    }

    private func load(_ plugin: Plugin) {
        let before = plugin.version
        plugin.load(at: now, defaults: defaults)
        router.flush()
        if plugin.version > before { reportConflicts(of: plugin) }
        onPluginsChanged?()
    }

    private func reportConflicts(of plugin: Plugin) {
        for (gesture, other) in ConflictCheck.conflicts(of: plugin, among: plugins) {
            router.diagnostic(plugin.name, "warning: \(gesture) is also bound by the plugin \(other): both act on it")
        }
    }

    /// Files changed in the folder (or modules a plugin required): a new plugin file loads, a
    /// removed one unloads, an edited one — or one whose module changed — reloads. Plugins
    /// that none of the files concern are not touched.
    public func filesChanged(_ files: [String]) {
        let changed = Set(files)
        // What happens to each plugin concerned, acted on in name order.
        var work: [String: (path: String, exists: Bool)] = [:]
        for file in files {
            guard let name = folder.pluginName(of: file) else { continue }
            work[name] = (file, access(file, F_OK) == 0)
        }
        for plugin in plugins where work[plugin.name] == nil && plugin.watchedFiles.contains(where: changed.contains) {
            work[plugin.name] = (plugin.path, true)
        }
        for name in work.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            let (path, exists) = work[name]!
            if let plugin = plugin(named: name) {
                if exists { load(plugin) } else { unload(plugin) }
            } else if exists {
                add(name: name, path: path)
            }
        }
    }

    private func unload(_ plugin: Plugin) {
        plugin.unload(at: now)
        plugins.removeAll { $0 === plugin }
        router.flush()
        onPluginsChanged?()
    }

    /// Every file a change of which concerns a plugin (plugin files and their modules).
    public var watchedFiles: [String] {
        var files: [String] = []
        for plugin in plugins { files += plugin.watchedFiles }
        return Array(Set(files)).sorted()
    }

    // MARK: LiveTarget

    public func handle(_ frame: Frame) {
        time = max(time, frame.t)
        for plugin in plugins {
            // Paused: the plugins still learn which fingers are down (for after `resume`).
            if isPaused { plugin.pipeline.track(frame) } else { plugin.handle(frame) }
        }
    }

    public var nextDueTime: Double? {
        guard !isPaused else { return nil }
        return plugins.compactMap(\.nextDueTime).min()
    }

    public func advance(to t: Double) {
        time = max(time, t)
        guard !isPaused else { return }
        for plugin in plugins { if let due = plugin.nextDueTime, due <= t { plugin.advance(to: t) } }
    }

    public func finish() {
        guard !isPaused else { return }
        for plugin in plugins { plugin.finish() }
    }

    /// The end of the daemon: every plugin's state closes (held keys released).
    public func close() {
        for plugin in plugins { plugin.unload(at: time, announce: false) }
        router.flush()
    }
}
