#if canImport(Glibc)
import Glibc
#endif
import MotionControl
import MotionGestures
import MotionPluginHost
import MotionInput

/// `motionscript daemon` on live input, wired as `run --device` is (`LiveInput`: the devices,
/// signals, the focus provider, `--proxy`, the frame chain), plus the service: the control
/// socket (taken first, so a second daemon stops before it grabs anything), systemd's notify
/// protocol, the flight recorder, the emergency gesture and the config folder's watcher.
public struct DaemonLive {
    /// The devices read (`--device`, or touchpads and touchscreens).
    public var selectors: [DeviceSelector]
    public var socketPath: String
    /// `--flight-recorder`: seconds of raw input kept per device (0: off).
    public var flightRecorderSeconds: Double
    /// `--app-provider` (nil: chosen from the environment); `--app` is the run options' `app`.
    public var appProvider: String?
    /// `--notify`: a desktop notification when a plugin fails.
    public var notify: Bool
    /// `--proxy`: the touchpads' and touchscreens' clones.
    public var proxy: Bool
    /// What `ctl scenario` writes as the scenario's declarations (`surface: …`, `axes: …`).
    public var scenarioDeclarations: [String]

    public init(selectors: [DeviceSelector], socketPath: String, flightRecorderSeconds: Double, appProvider: String?,
                notify: Bool, proxy: Bool, scenarioDeclarations: [String]) {
        self.selectors = selectors
        self.socketPath = socketPath
        self.flightRecorderSeconds = flightRecorderSeconds
        self.appProvider = appProvider
        self.notify = notify
        self.proxy = proxy
        self.scenarioDeclarations = scenarioDeclarations
    }

    /// Runs `host`'s plugins on live input until SIGINT/SIGTERM or `ctl stop`; says why input
    /// ended, and returns it. `openVirtualDevice` makes the plugins' virtual keyboard and mouse, once the socket
    /// is taken and before any input. Throws `ControlSocketBusy` when another daemon serves the socket.
    public func run(host: PluginHost, options: RunOptions, openVirtualDevice: () throws -> Void) throws -> String {
        let router = host.router
        // Lines of the input and the focus provider go to the daemon's log without the program's name.
        let diagnostics = { (line: String) in router.diagnostic(nil, String(line.dropFirst(line.hasPrefix("motionscript: ") ? 14 : 0))) }
        // The control socket first: a second daemon stops here, before it grabs anything.
        let service = try DaemonService(host: host, socketPath: socketPath, grabs: options.grab,
                                        recorder: FlightRecorder(seconds: flightRecorderSeconds, axes: options.input.axes))
        defer { service.close() }
        try openVirtualDevice()
        if notify { service.notifyOnFailure(searchPath: getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin") }
        service.scenarios = ScenarioWriter(declarations: scenarioDeclarations, input: options.input)
        // A service must not die with its touchpad: devices that go away are waited for. The
        // flight recorder keeps every device's raw input from its first event.
        let input = try LiveInput(selectors: selectors, options: options.input, grab: options.grab,
                                  waitsForDevices: true, recording: service.recorder, diagnostics: diagnostics)
        defer { input.close() }
        let device = input.devices
        host.screenSource = device.firstDevice
        service.attach(to: device)
        // Loaded here (runLive's own loadAll then finds them loaded) so READY=1 follows the loading.
        host.inputTimeNow = { [unowned device] in device.inputTimeNow() }
        host.loadAll()
        // One provider for the whole daemon, registered with the input's loop: each change to
        // every plugin (and to those loaded later) with one app line. Which one and why is said
        // at start and in `ctl status`.
        if options.app == nil {
            try input.followFocus(app: nil, provider: appProvider, diagnostics: diagnostics,
                                  chosen: { router.diagnostic(nil, $0.description) }) { [unowned host] app in
                // The flight recorder keeps it too: `ctl record` replays the live decision.
                service.recorder.noteFocus(app, at: Clock.monotonic())
                host.setFocusedApp(app)
            }
        } else {
            router.diagnostic(nil, "focus fixed to \(options.app ?? "") (--app)")
        }
        service.focus = { [unowned host, weak input, app = options.app] in
            if let app { return ControlStatus.Focus(provider: "fixed", reason: "--app \(app)", connected: nil, app: .some(AppInfo(id: app))) }
            return ControlStatus.Focus(provider: input?.focusChoice?.provider ?? "none", reason: input?.focusChoice?.reason ?? "",
                                       connected: input?.focus.map { $0.tracker.isConnected }, app: host.focusedApp)
        }
        router.flush()
        service.ready()
        let watcher = try ConfigWatcher(folder: host.folder)
        if let warning = UnwatchedFilesystem.warning(for: host.folder.path, what: "the config folder",
                                                     reload: "`motionscript ctl reload` or a restart loads them") {
            router.diagnostic(nil, String(warning))
        }
        // --proxy: the touchpads' and touchscreens' clones, the consumers being every plugin's;
        // ctl status shows their devices, and pause passes their frames whole to the clones.
        if proxy { service.proxy = input.startProxy(consumers: host.eachRecognizer, diagnostics: diagnostics) }
        // Each frame: the emergency gesture, the proxy, the plugins (`FrameChain`).
        let reason = try HostLoop.runLive(device, host: host, watcher: watcher, chain: input.chain(to: host, watch: service.emergency))
        // Said before the proxy, the focus provider and the socket close.
        router.diagnostic(nil, reason)
        return reason
    }
}
