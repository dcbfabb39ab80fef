import MotionLua

/// `motionscript run SCRIPT`: the plugin host's one-plugin case, under `run`'s policy
/// (`HostPolicy.run`). What only `run` asks of its host is here; the plugin, its calls, limits
/// and watchdog are the daemon's own code.
extension PluginHost {
    /// `run`'s host: one plugin, the script of `options`, writing to `output` (the run's own,
    /// which stops the run itself when it cannot be written). Its fingers down are tracked only
    /// for reloads (`tracksPointers`). Load it with `loadScript`. `limitsEachCall`: live input,
    /// where `--timeout` bounds each call as a plugin's limit does; false: a run over a file,
    /// bounded as a whole (`limitWholeRun`).
    public static func forScript(_ options: RunOptions, output: MotionOutput, limitsEachCall: Bool = true) -> PluginHost {
        // Its router reaches nobody: the script's lines go to `output`, and `run` has no lifecycle lines.
        let host = PluginHost(folder: ConfigFolder(scriptFolderOf: options.scriptPath), options: options,
                              router: OutputRouter(.memory),
                              defaults: PluginLimits(timeout: limitsEachCall ? options.timeout : 0, memoryMiB: 0),
                              policy: .run(output))
        host.tracksPointers = false
        let script = host.add(name: FileWatcherNames.base(options.scriptPath), path: options.scriptPath, loading: false)
        if limitsEachCall { host.watchdog = options.watchdog }
        // A new version starts at the input time the run's live wiring gives it (`--watch` on a
        // device); a replay starts each version at 0, not where the host's last frame was.
        script.pipeline.inputTimeNow = nil
        return host
    }

    /// `run`'s one plugin (nil: the daemon's folder of plugins).
    public var script: Plugin? { policy.endsRun ? plugins.first : nil }

    /// `run`'s script: loads it, throwing what stops it from loading (as `run` ends with it). A
    /// script that is a pipe or FIFO is read here, as `run` reads it; the load is under the
    /// run's watchdog when each call has a time limit (`Plugin.load`).
    public func loadScript() throws {
        guard let script else { return }
        script.clock = clock
        script.pipeline.screenSource = screenSource
        script.pipeline.scriptText = try Replay.scriptTextIfStream(script.path)
        if let failure = script.load(at: 0, defaults: defaults) { throw failure }
    }

    /// `run --watch`: loads the script's current version; one that does not load leaves the
    /// running version (if any) in place. The session says what happened.
    public func reloadScript() -> ScriptError? {
        script?.load(at: now, defaults: defaults)
    }

    /// `run`'s script on live input: told of each callback error (to report; that callback is
    /// switched off and the run goes on) and the input time it happened at. Nil (a file): the
    /// first error stops the script.
    public var onScriptCallbackError: ((ScriptError, Double) -> Void)? {
        get { script?.onScriptCallbackError }
        set { script?.onScriptCallbackError = newValue }
    }

    /// `run`'s script: the callback errors it survived.
    public var callbackErrors: Int { script?.callbackErrors ?? 0 }

    /// `run`'s script: called with its state before its setup runs (`run --plot`).
    public var willLoadScript: ((LuaRuntime) -> Void)? {
        get { script?.pipeline.willLoad }
        set { script?.pipeline.willLoad = newValue }
    }

    /// `run`'s script: the state of its version (nil before it loaded and once the host closed).
    public var scriptRuntime: LuaRuntime? { script?.pipeline.runtime }

    /// `run`'s script: the error that stopped it, taken (a `--watch` session goes on with the
    /// next version).
    public func takeScriptFailure() -> ScriptError? {
        guard let script, let failure = script.scriptFailure else { return nil }
        script.scriptFailure = nil
        return failure
    }

    /// `run --watch --device`: `--timeout` bounds each call into the script from now on, as a
    /// plugin's limit does, under the run's watchdog (a replay bounds each replay as a whole).
    public func limitEachCall() {
        guard let script else { return }
        script.limits.timeout = options.timeout
        noteLimits()
        watchdog = options.watchdog
    }

    /// `run` over a file: the time limit from the run's start bounds the whole run (its setup,
    /// every frame, the end of input), the Lua hook's and the watchdog's, which stops this state
    /// first and the process only as the last resort.
    public func limitWholeRun(until deadline: Double) {
        guard options.timeout > 0, let runtime = script?.pipeline.runtime else { return }
        runtime.setDeadline(deadline)
        options.watchdog?.arm(stopping: runtime.limiter)
    }
}
