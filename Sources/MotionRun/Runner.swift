import MotionActions
import MotionGestures
import MotionInput
import MotionLua
import MotionPluginHost

/// What `motionscript run` does: load the script (setup), then feed every frame of the input
/// through it in input-time order (`Replay.feed`), or live input through `LiveLoop`. Errors:
/// ScriptError (exit 1), InputError (exit 2).
public enum Runner {
    /// Runs a script over an event file (or only its setup when there is none): the plugin
    /// host's one plugin (`PluginHost.forScript`), under a time limit for the whole run.
    public static func run(_ options: RunOptions, output: MotionOutput) throws {
        // The watchdog covers the whole run, opening the input included.
        options.watchdog?.arm()
        defer { options.watchdog?.disarm() }
        // Open the input first: a bad events path is reported before the script runs.
        let source = try options.eventsPath.map { try Replay.openEvents(path: $0, options: options.input) }
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
            return try Replay.feed(source, to: ProxiedTarget(script, proxy: proxy), timeout: options.timeout, deadline: deadline)
        }
        try Replay.feedScript(source, to: script, timeout: options.timeout, deadline: deadline)
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
        let reason = try loop.runScript(input.chain(to: script))
        return LiveResult(reason: reason, callbackErrors: host.callbackErrors)
    }
}
