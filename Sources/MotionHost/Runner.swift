import MotionInput
import MotionLua

/// What `motionscript run` does: load the script (setup), then feed every frame of the input
/// through it in input-time order. Errors: ScriptError (exit 1), InputError (exit 2).
public struct RunOptions {
    public var scriptPath: String
    public var eventsPath: String?
    /// A live device (or FIFO) to read instead of an event file.
    public var devicePath: String?
    /// `--device` arguments (paths or selectors: touchpad, touchscreen, mouse, name=GLOB); when
    /// empty, `devicePath` alone.
    public var devices: [String] = []
    /// What to read live: `devices`, or `devicePath`.
    public var deviceSelectors: [DeviceSelector] {
        (devices.isEmpty ? devicePath.map { [$0] } ?? [] : devices).map(DeviceSelector.init)
    }
    public var grab: Bool = false
    /// Surface mapping and explicit axis ranges for evdev input.
    public var input = EventFileOptions()
    /// Seconds of wall time before a runaway script is stopped (0 = none).
    public var timeout: Double
    /// Bytes the Lua state may allocate (0 = no limit).
    public var memoryLimit: Int

    public init(scriptPath: String, eventsPath: String? = nil, timeout: Double = 0, memoryLimit: Int = 0) {
        self.scriptPath = scriptPath
        self.eventsPath = eventsPath
        self.timeout = timeout
        self.memoryLimit = memoryLimit
    }
}

public enum Runner {
    /// Runs a script over an event file (or only its setup when there is none).
    public static func run(_ options: RunOptions, output: MotionOutput) throws {
        // Open the input first: a bad events path is reported before the script runs.
        let source = try options.eventsPath.map { try openEvents(path: $0, options: options.input) }
        let runtime = try LuaRuntime(scriptPath: options.scriptPath, output: output, memoryLimit: options.memoryLimit)
        defer { runtime.close() }
        setScreen(of: runtime, options.input, source: source)
        runtime.setTimeout(options.timeout)
        try runtime.load()
        guard let source else { return try runtime.finish() }
        try feed(source, to: runtime, timeout: options.timeout)
    }

    /// Feeds every frame; checks the time limit between frames too, since a slow pipeline
    /// made of Swift operators never enters the Lua hook.
    public static func feed(_ source: FrameSource, to runtime: LuaRuntime, timeout: Double) throws {
        try feed(source, to: runtime, timeout: timeout, deadline: timeout > 0 ? Clock.monotonic() + timeout : .infinity)
    }

    /// The same with a deadline set earlier (a scenario's time limit covers its setup too).
    /// `shouldStop` is asked every 256 frames; when it says yes the replay ends early (Ctrl-C
    /// during `--watch`), without settling what is still scheduled.
    public static func feed(_ source: FrameSource, to runtime: LuaRuntime, timeout: Double, deadline: Double,
                            shouldStop: (() -> Bool)? = nil) throws {
        var frames = 0
        while let frame = try source.nextFrame() {
            try runtime.handle(frame)
            frames += 1
            if frames & 255 == 0 {
                if Clock.monotonic() > deadline {
                    throw ScriptError(.timeout, "\(runtime.scriptPath): timeout: the run went past its time limit of \(timeout) s")
                }
                if shouldStop?() == true { return }
            }
        }
        // End of input: pending taps and delays settle.
        try runtime.finish()
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

    /// Runs a script on a live device until it disappears or SIGINT/SIGTERM, writing each
    /// frame's output as it happens and what falls due between frames on time (`LiveLoop`);
    /// at the end what is still scheduled settles as at the end of a file. Returns why reading ended.
    @discardableResult
    public static func runLive(_ options: RunOptions, output: MotionOutput,
                               diagnostics: @escaping (String) -> Void = { _ in }) throws -> String {
        try runLiveSession(options, output: output, diagnostics: diagnostics).reason
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

    /// `runLive`, also telling how many callback errors the run survived: on live input a
    /// callback that raises is reported (with its traceback) through `diagnostics` and switched
    /// off — its subscription unsubscribed — and the run goes on.
    public static func runLiveSession(_ options: RunOptions, output: MotionOutput,
                                      diagnostics: @escaping (String) -> Void = { _ in }) throws -> LiveResult {
        let selectors = options.deviceSelectors
        guard !selectors.isEmpty else { return LiveResult(reason: "no device", callbackErrors: 0) }
        let device = try LiveDeviceSet(selectors: selectors, options: options.input, grab: options.grab,
                                       diagnostics: diagnostics)
        defer { device.close() }  // releases every grab on every path
        device.control.stopOnSignals()
        let runtime = try LuaRuntime(scriptPath: options.scriptPath, output: output, memoryLimit: options.memoryLimit)
        defer { runtime.close() }
        setScreen(of: runtime, options.input, source: device.firstDevice)
        runtime.setTimeout(options.timeout)
        try runtime.load()
        runtime.onCallbackError = { error in
            (output as? JSONLinesOutput)?.flush()
            diagnostics("error: \(error.message)")
            diagnostics("-- that callback is switched off (its subscription unsubscribed); the run goes on --")
        }
        let reason = try LiveLoop(device: device).run(runtime)
        return LiveResult(reason: reason, callbackErrors: runtime.callbackErrorCount)
    }
}
