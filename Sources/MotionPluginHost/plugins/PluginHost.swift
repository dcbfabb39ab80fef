#if canImport(Glibc)
import Glibc
#endif
import MotionGestures
import MotionLua
import MotionStreams

/// Every plugin of a config folder, each in a Lua state of its own, fed the same frames in
/// name order. What one plugin does wrong stays with it (`Plugin`); the host never throws for
/// a plugin. It is a `LiveTarget`: a live loop or a replay feeds it as it would one script.
/// `PluginControl` is the surface a control server calls.
///
/// `motionscript run SCRIPT` is the host's one-plugin case (`PluginHost.forScript`, README
/// "`run`: one script"): the same plugin, calls, time limits and watchdog, under `run`'s policy
/// (`HostPolicy`) — the script's library and arguments as `run` gives them, its lines untagged
/// and no lifecycle lines, a callback error reported and that callback switched off, and the
/// first error that stops the script ending the run (`OneScript` throws it to the run's loop).
public final class PluginHost: LiveTarget {
    public let folder: ConfigFolder
    public let router: OutputRouter
    /// Limits for plugins without their own header (`--timeout`, `--memory`).
    public var defaults: PluginLimits
    /// What every plugin's pipeline starts from: input options, the shared action host.
    let options: RunOptions
    // Used on the host's thread only, and no access is held across a call into a plugin. This
    // module is built without exclusivity checks in release (Package.swift's `hotPath`), so a
    // frame's accesses are plain loads and stores there; debug builds, where the tests run,
    // check that no two accesses overlap.
    /// Loaded plugins (running, failed or disabled), in name order.
    public private(set) var plugins: [Plugin] = [] {
        didSet { reached = plugins.map(Unretained.init) }
    }
    /// The same plugins, held by `plugins` (`Unretained`'s owner): a frame reaches each without
    /// a retain and a release of it (as `PointerDispatcher.reached`).
    private var reached: [Unretained<Plugin>] = []
    /// Input time now: the last frame's, or what time advanced to.
    public private(set) var time = 0.0
    /// Live input: the input time on the device's clock (a plugin loaded later starts there).
    public var inputTimeNow: (() -> Double?)?
    /// The live device, whose description sizes `motion.screen` for `--surface mm`.
    public var screenSource: AnyObject?
    /// `pause()`: frames reach no plugin.
    public internal(set) var isPaused = false
    /// Ends the process when a plugin hangs outside Lua, recording it (nil: no watchdog).
    public var watchdog: Watchdog? {
        didSet {
            for plugin in plugins { plugin.watchdog = watchdog }
            watchdog?.setShortest(shortestTimeout)
        }
    }
    /// The fingers down now, tracked once per frame for every plugin: each version a plugin
    /// loads is handed them (a reload, a plugin added or fixed while a finger is down).
    let pointers = PointersDown()
    /// The shortest time limit of the plugins (0: none has one): how long a call runs at least
    /// before the watchdog looks (see `Watchdog.enterCall`).
    private var shortestTimeout = 0.0
    /// The host's clock (monotonic seconds): read once before a frame's first call and once
    /// after each call. Nil: `TimeLimit.now` (tests inject one).
    var clock: (() -> Double)? {
        didSet { for plugin in plugins { plugin.clock = clock } }
    }
    /// `TimeLimit.resolution`, kept here: read for every frame.
    private let clockTick = TimeLimit.resolution
    /// Where the plugin that hung the daemon is recorded; such a plugin is not loaded again
    /// until its file changes.
    public var hangRecord: HangRecord?
    /// Where each plugin's `motion.exec` children that fail say so (`exec […]: exited with
    /// status N`), made per plugin by its name: called on the reaper's thread, so it must hand
    /// the line to the host's thread (the daemon: a `LoopMailbox`). Set before plugins load.
    /// Nil: the launcher's report (stderr).
    public var childEnded: ((String) -> @Sendable (String) -> Void)?
    /// `ctl monitor --recognizers`: makes the observer of a plugin's recognizers, by plugin name,
    /// for every version it loads (nil: nobody listens, and recognizers build no reasons).
    public var recognizerObservers: ((String) -> RecognizerObserver)? {
        didSet { for plugin in plugins { plugin.pipeline.recognizerObserver = recognizerObservers?(plugin.name) } }
    }
    /// Called after plugins loaded, reloaded or unloaded (the watcher's file list changes).
    public var onPluginsChanged: (() -> Void)?

    /// The focused application last reported (a provider's change or an event file's app line);
    /// nil: none yet. A plugin loaded later starts from it. Unused with `--app` (`options.app`),
    /// which every plugin's pipeline fixes itself.
    public private(set) var focusedApp: AppInfo??

    /// How its plugins are treated: the daemon's or `run`'s.
    public let policy: HostPolicy

    public init(folder: ConfigFolder, options: RunOptions, router: OutputRouter, defaults: PluginLimits = PluginLimits(),
                policy: HostPolicy = .daemon) {
        self.folder = folder
        self.options = options
        self.router = router
        self.defaults = defaults
        self.policy = policy
        router.onFailure = { [unowned self] in outputFailed() }
    }

    /// Whether the fingers down are tracked for the next version a plugin loads (not for `run`
    /// without `--watch`, which loads one version).
    public var tracksPointers = true

    /// Why the host stopped before its input ended, nil while it runs: its output cannot be
    /// written any more. The loops (`HostLoop`) end at the next frame.
    public private(set) var stopReason: String?

    /// Called once, on the host's thread, when the host stops (`stopReason` set): a live loop
    /// is told then, rather than asking after every step (`HostLoop.runLive`).
    public var onStop: (() -> Void)?

    /// The output is the process's, shared by every plugin: when it cannot be written (its
    /// reader went away, a full disk) that is no plugin's fault. The call into the plugin under
    /// way ends normally (within its time limit), no other plugin is called, and no Lua state
    /// is interrupted or blamed — unlike a signal, which stops every state at once
    /// (`Interruption`). A reader that is only slow never gets here: live output drops lines
    /// rather than wait (`BoundedWriter`).
    private func outputFailed() {
        guard stopReason == nil else { return }
        let why: String
        switch router.failure {
        case .closedPipe: why = "its reader went away"
        case .error(let message): why = message
        case nil: why = "unknown error"
        }
        // Said by the command as it ends (a filter whose reader went away ends quietly).
        stopReason = "the output cannot be written (\(why)); stopped"
        onStop?()
    }

    public func plugin(named name: String) -> Plugin? { plugins.first { $0.name == name } }

    /// Input time now for a lifecycle line, a focus line or a new version: the device's clock
    /// when it has one, never earlier than a time already given. Live input without one now (its
    /// device went away, a pipe that ended and is waited for) goes on from the last reading by
    /// the host's clock, so a reload or a focus change then carries the time it happened, not
    /// the last frame's. A replay (no `inputTimeNow`) reads no clock.
    var now: Double {
        guard let inputTimeNow else { return time }
        let local = clock?() ?? Clock.monotonic()
        if let t = inputTimeNow() {
            time = max(time, t)
            clockAnchor = (time, local)
        } else if let anchor = clockAnchor {
            time = max(time, anchor.input + (local - anchor.local))
        }
        return time
    }

    /// The last input time the device gave `now`, and the host's clock then.
    private var clockAnchor: (input: Double, local: Double)?

    /// Loads every plugin in the folder, in name order.
    public func loadAll() {
        warnAboutSkippedEntries()
        for (name, path) in folder.plugins() where plugin(named: name) == nil {
            add(name: name, path: path)
        }
    }

    /// A plugin joins the host; loaded unless `loading` is false (`run`'s script, which its
    /// command loads when the run is set up: `loadScript`).
    @discardableResult
    func add(name: String, path: String, loading: Bool = true) -> Plugin {
        let plugin = Plugin(name: name, path: path, options: options, policy: policy, router: router, limits: defaults)
        plugin.pipeline.pointers = pointers
        plugin.clock = clock
        plugin.pipeline.screenSource = screenSource
        plugin.pipeline.inputTimeNow = { [unowned self] in now }
        plugin.watchdog = watchdog
        plugin.hangRecord = hangRecord
        if let recognizerObservers { plugin.pipeline.recognizerObserver = recognizerObservers(name) }
        plugin.pipeline.childEnded = childEnded?(name)
        if case .some(let app) = focusedApp { plugin.pipeline.setFocusedApp(app) }
        plugins.append(plugin)
        plugins.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        noteLimits()
        if loading { load(plugin) }
        return plugin
    }

    private func load(_ plugin: Plugin) {
        let before = plugin.version
        plugin.load(at: now, defaults: defaults)
        noteLimits()
        router.flush()
        if plugin.version > before { reportConflicts(of: plugin) }
        onPluginsChanged?()
    }

    func noteLimits() {
        shortestTimeout = plugins.map(\.limits.timeout).filter { $0 > 0 }.min() ?? 0
        watchdog?.setShortest(shortestTimeout)
    }

    private func reportConflicts(of plugin: Plugin) {
        for (gesture, other) in ConflictCheck.conflicts(of: plugin, among: plugins) {
            let line = "warning: \(gesture) is also bound by the plugin \(other): both act on it"
            router.diagnostic(plugin.name, line)
            plugin.findings.append(line)
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
        plugin.watchdog = nil
        plugins.removeAll { $0 === plugin }
        noteLimits()
        router.flush()
        onPluginsChanged?()
    }

    /// Every file a change of which concerns a plugin (plugin files and their modules).
    public var watchedFiles: [String] {
        var files: [String] = []
        for plugin in plugins { files += plugin.watchedFiles }
        return Array(Set(files)).sorted()
    }

    /// A desktop provider's focus change (live): one app line for the whole daemon, then every
    /// plugin hears it (each plugin's runtime writes none: `Plugin` turns that off).
    public func setFocusedApp(_ app: AppInfo?) {
        guard noteFocus(app, at: now) else { return }
        eachPlugin { plugin, start in plugin.setFocusedApp(app, from: start) }
        router.flush()
    }

    /// Records a focus change and writes its line; false when nothing changed or `--app` fixed it.
    private func noteFocus(_ app: AppInfo?, at t: Double) -> Bool {
        guard options.app == nil else { return false }
        if case .some(let known) = focusedApp, known == app { return false }
        focusedApp = .some(app)
        // Under `run`'s policy the script writes its own app lines, as a runtime alone does.
        if policy.announces { router.app(t: t, app) }
        return true
    }

    /// Every recognizer of the running plugins (or `run`'s script), plugins in load order and
    /// each plugin's recognizers in creation order: the consumers the proxy arbitrates among
    /// (`ConsumerArbitration`). Allocates nothing.
    public func eachRecognizer(_ visit: (GestureRecognizer) -> Void) {
        if let script {
            guard let runtime = script.pipeline.runtime else { return }
            for r in runtime.dispatcher.recognizers { visit(r) }
            return
        }
        for plugin in plugins where plugin.state == .running {
            guard let runtime = plugin.pipeline.runtime else { continue }
            for r in runtime.dispatcher.recognizers { visit(r) }
        }
    }

    // MARK: LiveTarget

    public func handle(_ frame: Frame) {
        time = max(time, frame.t)
        // An event file's app line: its one line here; the plugins take it from the frame.
        if let change = frame.focus { _ = noteFocus(change.app, at: frame.t) }
        // Paused too: the plugins are handed the fingers down at `resume`.
        if tracksPointers { pointers.track(frame) }
        guard !isPaused else { return }
        eachPlugin { plugin, start in plugin.handle(frame, from: start) }
    }

    public var nextDueTime: Double? {
        guard !isPaused else { return nil }
        // Asked before every wait: no array made, each plugin reached unretained.
        var earliest: Double?
        var i = 0
        while i < reached.count {
            if let due = reached[i].with({ $0.nextDueTime }), due < earliest ?? .infinity { earliest = due }
            i += 1
        }
        return earliest
    }

    public func advance(to t: Double) {
        time = max(time, t)
        guard !isPaused else { return }
        eachPlugin { plugin, start in
            guard let due = plugin.nextDueTime, due <= t else { return start }
            return plugin.advance(to: t, from: start)
        }
    }

    /// Its watchdog's pending look is cancelled: nothing runs while input is awaited.
    public func willWaitIdle() { watchdog?.quiesce() }

    public func finish() {
        guard !isPaused else { return }
        eachPlugin { plugin, start in plugin.finish(from: start) }
    }

    /// `pause`/`resume`: the fingers down given to every running plugin in one frame at `t`,
    /// each as `phase` (`PointersDown.handedOver`), under each call's time limit. Nothing when
    /// no finger is down.
    func handOver(as phase: PointerPhase, at t: Double) {
        guard !pointers.isEmpty else { return }
        let frame = Frame(t: t, events: pointers.handedOver(as: phase, at: t))
        eachPlugin { plugin, start in plugin.handle(frame, from: start) }
    }

    /// One call into each plugin, in name order, each publishing its plugin and limit to the
    /// watchdog (whose watch goes on from frame to frame, `Watchdog.enterCall`): the clock
    /// (`TimeLimit`, no system call) is read once before the first call and once after each,
    /// that read being both the end of one call (its CPU time) and the start of the next (its
    /// time limit counts from there, so a slow plugin never uses up the next one's time).
    @inline(__always)
    private func eachPlugin(_ call: (Plugin, Double) -> Double) {
        // Without a time limit nor CPU time to count (`run`'s policy) the clock has no use.
        var start = !policy.accountsTime && shortestTimeout == 0 ? 0 : clock?() ?? TimeLimit.now(tick: clockTick)
        // No call adds or removes a plugin (files change between frames); by index, so the
        // array is not retained for the loop. A failed write stops the host: no plugin is
        // called after it (`outputFailed`).
        var i = 0
        while i < reached.count, stopReason == nil {
            start = reached[i].with { call($0, start) }
            i += 1
        }
    }

    /// The end of the daemon: every plugin's state closes (held keys released).
    public func close() {
        // Under `run`'s policy the script ends at its own time, which settling may have taken
        // past the last frame's; the daemon's plugins end together, at the host's.
        for plugin in plugins { plugin.unload(at: policy.endsRun ? nil : time, announce: false) }
        router.flush()
    }
}

/// A replay of an event file feeds every plugin (`HostLoop.replay`, through `Runner.replay`).
extension PluginHost: ReplayTarget {
    public var scriptPath: String { policy.endsRun ? plugins.first?.path ?? folder.path : folder.path }
    public func note(_ line: String) { router.diagnostic(nil, line) }
}
