import MotionActions
import MotionGestures
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
import MotionJSON
#endif

/// What `motionscript run` does: load the script (setup), then feed every frame of the input
/// through it in input-time order. Errors: ScriptError (exit 1), InputError (exit 2).
public struct RunOptions {
    public var scriptPath: String
    public var eventsPath: String?
    /// `--device` arguments, what to read live instead of an event file (paths, FIFOs or
    /// selectors: touchpad, touchscreen, mouse, name=GLOB).
    public var devices: [String] = []
    /// What to read live: `devices`.
    public var deviceSelectors: [DeviceSelector] { devices.map(DeviceSelector.init) }
    public var grab: Bool = false
    /// `--proxy`: the desktop reads a clone of each device, without the touches consumers take
    /// (docs/desktop.md). Over an event file: decided as live, written to `proxyOutput`.
    public var proxy = false
    /// `--proxy-output FILE`: the clones' frames of a replay, as an evemu recording.
    public var proxyOutput: String?
    /// Surface mapping and explicit axis ranges for evdev input.
    public var input = EventFileOptions()
    /// Seconds of wall time before a runaway script is stopped (0 = none).
    public var timeout: Double
    /// Bytes the Lua state may allocate (0 = no limit).
    public var memoryLimit: Int
    /// Run the script in the restricted standard library (`LuaRuntime(sandbox:)`).
    public var sandbox = false
    /// Lua source run before the script to shape its library (`LuaRuntime(profile:)`).
    public var profile: String?
    /// Files open without blocking, regular files only (`LuaRuntime(regularFilesOnly:)`).
    public var regularFilesOnly: String?
    /// What the script sees as `arg[1]`… and `...` (`run SCRIPT -- ARGS`).
    public var scriptArguments: [String] = []
    /// Ends the process when a stretch bounded by `timeout` is blocked outside Lua (armed for
    /// the whole run over a file; for setup and for each frame of live input).
    public var watchdog: Watchdog?
    /// Whether actions (keys, mouse, exec) are performed or only written as output lines.
    public var actions = ActionHost.outputOnly()
    /// `--app NAME`: the focused application for the whole run (no provider, app lines ignored).
    public var app: String?
    /// `--app-provider NAME` (sway, hyprland, kwin, gnome, x11, none); nil: chosen from the environment.
    /// Live runs only: a replay's focus comes from its app lines.
    public var appProvider: String?
    /// `run --explain`: told of every recognizer's state changes with the reason (nil: nobody
    /// listens, and recognizers build no reasons).
    public var recognizerObserver: RecognizerObserver?

    public init(scriptPath: String, eventsPath: String? = nil, timeout: Double = 0, memoryLimit: Int = 0) {
        self.scriptPath = scriptPath
        self.eventsPath = eventsPath
        self.timeout = timeout
        self.memoryLimit = memoryLimit
    }
}

public enum Runner {
    /// Runs a script over an event file (or only its setup when there is none): the plugin
    /// host's one plugin (`PluginHost.forScript`), under a time limit for the whole run.
    public static func run(_ options: RunOptions, output: MotionOutput) throws {
        // The watchdog covers the whole run, opening the input included.
        options.watchdog?.arm()
        defer { options.watchdog?.disarm() }
        // Open the input first: a bad events path is reported before the script runs.
        let source = try options.eventsPath.map { try openEvents(path: $0, options: options.input) }
        // The time limit covers the whole run: setup, every frame and the end of input.
        let deadline = options.timeout > 0 ? Clock.monotonic() + options.timeout : .infinity
        let host = PluginHost.forScript(options, output: output, limitsEachCall: false)
        defer { host.close() }
        host.screenSource = source
        try host.loadScript()
        // From here on the watchdog stops this state first, the process only as the last resort.
        host.limitWholeRun(until: deadline)
        let script = OneScript(host)
        guard let source else { return try script.finish() }
        if options.proxy {
            let proxy = try ProxyReplay(source: source, eventsPath: options.eventsPath ?? "", outputPath: options.proxyOutput,
                                        line: { output.emit(t: $0, name: "proxy", value: $1) }, consumers: host.eachRecognizer)
            return try replay(source, to: ProxiedTarget(script, proxy: proxy), timeout: options.timeout, deadline: deadline)
        }
        try replay(source, to: script, timeout: options.timeout, deadline: deadline)
    }

    /// Feeds every frame; checks the time limit between frames too, since a slow pipeline
    /// made of Swift operators never enters the Lua hook.
    public static func feed(_ source: FrameSource, to runtime: LuaRuntime, timeout: Double) throws {
        try feed(source, to: runtime, timeout: timeout, deadline: timeout > 0 ? Clock.monotonic() + timeout : .infinity)
    }

    /// The same with a deadline set earlier (a scenario's time limit covers its setup too).
    /// `shouldStop` is asked every 256 frames; when it says yes the replay ends early (Ctrl-C
    /// during `--watch`), without settling what is still scheduled. An interruption (SIGINT,
    /// SIGTERM, a failed output write) ends it with an error at the next frame.
    public static func feed(_ source: FrameSource, to runtime: LuaRuntime, timeout: Double, deadline: Double,
                            shouldStop: (() -> Bool)? = nil) throws {
        // The loop specialized for one runtime: no dispatch per frame.
        try replay(source, to: runtime, timeout: timeout, deadline: deadline, shouldStop: shouldStop)
    }

    /// The one loop over an event file's frames, for the plugin host: `run`'s one script
    /// (`OneScript`, whose first error is thrown) or the daemon's plugins (whose errors stay with
    /// each plugin: only a time limit over the whole replay or an interruption is thrown for
    /// them); a scenario's runtime too. Inlinable: specialized where it is called, so the
    /// daemon's replay pays no dispatch per frame either.
    @inlinable
    public static func replay<Target: ReplayTarget>(_ source: FrameSource, to target: Target, timeout: Double,
                                                    deadline: Double = .infinity, shouldStop: (() -> Bool)? = nil) throws {
        var frames = 0
        while target.stopReason == nil, let frame = try source.nextFrame() {
            if Interruption.isRequested { throw interrupted(target) }
            do {
                try target.handle(frame)
            } catch let error as ScriptError where error.kind == .runtime {
                throw error.placed(at: target.time, source.framePlace)
            }
            frames += 1
            if frames & 255 == 0 {
                if Clock.monotonic() > deadline {
                    throw ScriptError(.timeout, "\(target.scriptPath): timeout: the run went past its time limit of \(timeout) s")
                }
                if shouldStop?() == true { return }
            }
        }
        if target.stopReason != nil { return }
        if let hint = (source as? JSONLinesReader)?.timeUnitHint { target.note(hint) }
        // End of input: pending taps and delays settle.
        if Interruption.isRequested { throw interrupted(target) }
        do {
            try target.finish()
        } catch let error as ScriptError where error.kind == .runtime {
            throw error.placed(at: target.time, source.framePlace.map { _ in "end of input" })
        }
    }

    /// A script that is a FIFO, pipe or device is read here, as event files are: Lua's own
    /// `fopen` would wait in `open` for a writer past every signal: its text. Nil: a regular
    /// file, left to Lua.
    public static func scriptTextIfStream(_ path: String) throws -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return try readWholeInput(path: path, limit: Self.maxStreamedScript)
    }

    /// The longest script read from a stream (a regular file has no such bound but memory's).
    static let maxStreamedScript = 64 << 20

    /// The error of a run interrupted between frames, where no Lua code was running.
    @usableFromInline
    static func interrupted(_ target: some ReplayTarget) -> ScriptError {
        ScriptError(.runtime, "\(target.scriptPath): interrupted (input time \(JSONText.number(target.time)) s)")
    }

    /// `--app NAME`: the application `apps =` is decided against for the whole run.
    public static func fixApp(of runtime: LuaRuntime, _ options: RunOptions) {
        if let app = options.app { runtime.fixFocusedApp(AppInfo(id: app)) }
    }

    /// `motion.screen.width/height`: the surface positions are mapped onto (`--surface WxH`, or
    /// the device's size in millimetres for `--surface mm`); infinite in raw units.
    public static func setScreen(of runtime: LuaRuntime, _ input: EventFileOptions, source: AnyObject?) {
        let device = (source as? EvdevSourceInfo)?.device ?? DeviceDescription()
        if let surface = input.resolvedSurface(for: device) {
            runtime.setScreenSize(width: surface.width, height: surface.height)
        }
    }

    /// Opens an event file, detecting its format by content.
    public static func openEvents(path: String, options: EventFileOptions = EventFileOptions()) throws -> FrameSource {
        try openEventFile(path: path, options: options)
    }

    /// How a live run ended: why input ended, and how many callback errors were reported (and
    /// their callbacks switched off) while it went on.
    public struct LiveResult: Equatable {
        public var reason: String
        public var callbackErrors: Int

        public init(reason: String, callbackErrors: Int) {
            self.reason = reason
            self.callbackErrors = callbackErrors
        }
    }

    /// Runs a script on live devices until they disappear or SIGINT/SIGTERM, writing each
    /// frame's output as it happens and what falls due between frames on time (`LiveLoop`); at
    /// the end what is still scheduled settles as at the end of a file. Returns why reading
    /// ended, and how many callback errors the run survived: on live input a callback that
    /// raises is reported (with its traceback) through `diagnostics` and switched off — its
    /// subscription unsubscribed — and the run goes on.
    public static func runLiveSession(_ options: RunOptions, output: MotionOutput,
                                      diagnostics: @escaping (String) -> Void = { _ in }) throws -> LiveResult {
        let selectors = options.deviceSelectors
        guard !selectors.isEmpty else { return LiveResult(reason: "no device", callbackErrors: 0) }
        // The devices, SIGINT/SIGTERM waking their wait, the focus provider (`LiveInput`).
        let input = try LiveInput(selectors: selectors, options: options.input, grab: options.grab, diagnostics: diagnostics)
        defer { input.close() }  // releases every grab on every path
        let device = input.devices
        // The script is the plugin host's one plugin, under run's policy (`PluginHost.forScript`).
        let host = PluginHost.forScript(options, output: output)
        defer { host.close() }
        host.screenSource = device.firstDevice
        // Live input has no end to bound: the time limit bounds the setup and each frame's work.
        try host.loadScript()
        // The setup's lines leave before the first wait for input.
        (output as? JSONLinesOutput)?.flush()
        host.onScriptCallbackError = { error, t in
            (output as? JSONLinesOutput)?.flush()
            // Live input has no file to point into: the input time says when.
            diagnostics("error: \(error.placed(at: t, nil).message)")
            diagnostics("-- that callback is switched off (its subscription unsubscribed); the run goes on --")
        }
        let script = OneScript(host, live: true)
        let loop = LiveLoop(device: device)
        // The focused application (`apps =`): the provider registered with the input's loop.
        try input.followFocus(app: options.app, provider: options.appProvider, diagnostics: diagnostics) { app in
            try script.setFocusedApp(app)
        }
        let lines = output as? JSONLinesOutput
        // The focus at connection leaves before the first wait, as the setup's lines do.
        lines?.flush()
        // A frame's lines leave together in one write as soon as its work is done.
        loop.output = lines
        if options.proxy { input.startProxy(consumers: host.eachRecognizer, diagnostics: diagnostics) }
        // Each frame through the proxy (when there is one) to the script (`FrameChain`).
        let reason = try loop.run(input.chain(to: script))
        return LiveResult(reason: reason, callbackErrors: host.callbackErrors)
    }
}
