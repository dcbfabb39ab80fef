#if canImport(Glibc)
import Glibc
#endif
import MotionActions
import MotionControl
import MotionPluginHost
import MotionInput
import MotionDiagnostics

/// What turns `motionscript daemon` into a service: the control socket (served from the input's
/// one wait), systemd's notify protocol, journal priorities on stderr, SIGHUP and SIGUSR1, the
/// emergency stop (pause: every device ungrabbed, every held key released) and the flight
/// recorder. It drives the plugin host through `PluginControl` and is the socket's `ControlTarget`.
public final class DaemonService: ControlTarget {
    public let host: PluginHost
    /// The control socket; nil when it could not be made (a read-only /tmp without
    /// XDG_RUNTIME_DIR): the daemon then runs without `ctl`, and said why.
    public let server: ControlServer?
    public let notify: SystemdNotify
    public let recorder: FlightRecorder
    /// Whether the devices are grabbed while running (`--grab`).
    public let grabs: Bool
    /// How `ctl scenario` writes (the daemon's --surface/--axes as declarations).
    public var scenarios = ScenarioWriter(declarations: [], input: EventFileOptions())
    private var device: LiveDeviceSet?
    private var tokens: [Int32: EventLoop.Registration] = [:]
    private var signalPipe: Int32?
    private let started = Clock.monotonic()
    private var stopping = false
    /// The emergency-stop gesture: the frame chain's watch (`FrameChain`, `DaemonLive`), fed
    /// every frame before the host, paused or not.
    public let emergency = EmergencyWatch()
    /// The live proxy (`--proxy`): its devices in `ctl status`, and pause hands the desktop
    /// its pads through it (every frame passed, nothing ungrabbed mid-touch).
    public weak var proxy: ProxyControl?

    /// Takes the socket: throws `ControlSocketBusy` (a real failure: exit 1) when another daemon
    /// holds it; a socket that cannot be made is a warning, and the daemon runs without it.
    public init(host: PluginHost, socketPath: String, grabs: Bool, recorder: FlightRecorder = FlightRecorder(),
                notify: SystemdNotify = .fromEnvironment()) throws {
        self.host = host
        self.grabs = grabs
        self.recorder = recorder
        self.notify = notify
        var problem: String?
        do {
            server = try ControlServer(path: socketPath, target: nil)
        } catch let error as ControlError {
            server = nil
            problem = error.message
        }
        server?.target = self
        let journal = JournalStream.isStandardError
        host.router.diagnostics = { line in
            StandardError.line(JournalStream.format(line, priority: LogPriority.of(line), journal: journal))
        }
        emergency.fired = { [weak self] in
            guard let self else { return }
            self.host.router.diagnostic(nil, "emergency-stop gesture (five fingers held still for 3 s)")
            if self.host.isPaused { self.controlResume() } else { self.controlPause() }
        }
        host.router.log.onLine = { [weak self] entry in
            self?.server?.publish(log: entry.line, plugin: entry.plugin)
        }
        server?.onMonitorsChanged = { [weak self] in self?.updateMonitor() }
        server?.diagnostics = { [weak host] in host?.router.diagnostic(nil, $0) }
        if let problem {
            host.router.diagnostic(nil, "warning: no control socket (ctl will not reach this daemon): \(problem); set XDG_RUNTIME_DIR or --socket")
        }
    }

    /// Joins the input's one wait: the socket and its clients, the signal pipe. (The devices'
    /// flight recorder rings are the set's `recording`, given when the input opens: `DaemonLive`.)
    public func attach(to device: LiveDeviceSet) {
        self.device = device
        server?.onDescriptorsChanged = { [weak self] in self?.syncWatches() }
        syncWatches()
        if let fd = ServiceSignals.install() {
            signalPipe = fd
            device.loop.register(fd: fd) { [weak self] in
                for signal in ServiceSignals.drain(fd) { self?.handle(signal) }
            }
        }
    }

    private func syncWatches() {
        guard let device, let server else { return }
        let wanted = Set(server.descriptors)
        for (fd, token) in tokens where !wanted.contains(fd) {
            device.loop.unregister(token)
            tokens[fd] = nil
        }
        for fd in wanted where tokens[fd] == nil {
            tokens[fd] = device.loop.register(fd: fd) { [weak self] in self?.server?.service(fd) }
        }
    }

    /// Output lines reach the socket only while someone monitors, and recognizers have an
    /// observer only while someone monitors them (no cost otherwise).
    private func updateMonitor() {
        if server?.hasMonitors == true {
            if host.router.monitor == nil {
                host.router.monitor = { [weak self] line in self?.server?.publish(output: line, plugin: Self.plugin(of: line)) }
            }
        } else {
            host.router.monitor = nil
        }
        if server?.hasRecognizerMonitors == true {
            if host.recognizerObservers == nil {
                host.recognizerObservers = { [weak self] plugin in RecognizerMonitorFeed(plugin: plugin, server: self?.server) }
            }
        } else if host.recognizerObservers != nil {
            host.recognizerObservers = nil
        }
    }

    /// The `"plugin":"NAME"` a line carries (right after its time).
    static func plugin(of line: String) -> String? {
        guard let range = line.range(of: "\"plugin\":\"") else { return nil }
        let rest = line[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    // MARK: Service life

    /// The plugins are loaded: READY=1 with the counts.
    public func ready() {
        notify.ready(status: controlStatus().summary)
    }

    public func updateStatus() {
        notify.status(controlStatus().summary)
    }

    public func close() {
        if !stopping { notify.stopping() }
        stopping = true
        server?.close()
        if let signalPipe { Glibc.close(signalPipe) }
        signalPipe = nil
    }

    private func handle(_ signal: ServiceSignals.Signal) {
        switch signal {
        case .reload:
            _ = try? controlReload(plugin: nil)
        case .emergency:
            if host.isPaused { controlResume() } else { controlPause() }
        }
    }

    // MARK: ControlTarget

    public func controlStatus() -> ControlStatus {
        let plugins = host.status().map {
            ControlStatus.Plugin(name: $0.name, state: $0.state.rawValue, version: $0.version, errors: $0.errors, lastError: $0.lastError,
                                 memoryBytes: $0.memory, cpuSeconds: $0.cpuSeconds, recognizers: $0.recognizers,
                                 findings: $0.findings)
        }
        let devices = (device?.members ?? []).map {
            ControlStatus.Device(node: $0.node, name: $0.tag.name, kind: $0.tag.kind, grabbed: grabs && !host.isPaused)
        }
        var status = ControlStatus(plugins: plugins, devices: devices, uptimeSeconds: Clock.monotonic() - started,
                                   paused: host.isPaused, pid: getpid(), directory: host.folder.path)
        status.focus = focus?()
        status.proxy = proxy?.proxyStatus()
        return status
    }

    /// Where the focused application comes from and what it is, for `ctl status` (set by the
    /// daemon once it chose its provider).
    public var focus: (() -> ControlStatus.Focus)?

    public func controlReload(plugin: String?) throws -> String {
        if let plugin, host.plugin(named: plugin) == nil { throw ControlError("no plugin named \(plugin)") }
        notify.reloading()
        defer { ready() }
        let before = host.status()
        guard host.reload(plugin) else { throw ControlError("no plugin named \(plugin ?? "")") }
        let after = host.status().filter { plugin == nil || $0.name == plugin }
        return after.map { p in
            let old = before.first { $0.name == p.name }
            let what = old == nil ? "loaded" : p.version != old!.version ? "reloaded" : p.state == .running ? "kept version \(p.version)" : p.state.rawValue
            return "\(p.name): \(what) (version \(p.version))" + (p.state == .running ? "" : p.lastError.map { ": \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    public func controlEnable(plugin: String) throws {
        guard host.enable(plugin) else { throw ControlError("no plugin named \(plugin)") }
        updateStatus()
    }

    public func controlDisable(plugin: String) throws {
        guard host.disable(plugin) else { throw ControlError("no plugin named \(plugin)") }
        updateStatus()
    }

    public func controlPause() {
        host.pause()
        if grabs { device?.setGrabbed(false) }
        proxy?.passAll()
        host.router.diagnostic(nil, proxy == nil ? "paused: every device ungrabbed, every held key released (ctl resume, or SIGUSR1 again)"
                                   : "paused: every device ungrabbed or passed whole to its clone, every held key released (ctl resume, or SIGUSR1 again)")
        updateStatus()
    }

    /// `daemon --notify`: a desktop notification when a plugin fails (`FailureNotifier`).
    public private(set) var notifier: FailureNotifier?

    public func notifyOnFailure(searchPath: String) {
        let journal = JournalStream.isStandardError
        // notify-send's own failure (no notification daemon, say) comes from the reaper thread.
        let launcher = ProcessLauncher { line in
            StandardError.line(JournalStream.format("warning: --notify: " + line, priority: .warning, journal: journal))
        }
        let notifier = FailureNotifier(searchPath: searchPath, launcher: launcher, now: Clock.monotonic) { [weak host] in
            host?.router.diagnostic(nil, $0)
        }
        host.router.onPluginFailure = { notifier.pluginFailed($0, $1) }
        self.notifier = notifier
    }

    public func controlResume() {
        if grabs, host.isPaused { device?.setGrabbed(true) }
        if host.isPaused { proxy?.takeBack() }
        host.resume()
        host.router.diagnostic(nil, "resumed")
        updateStatus()
    }

    public func controlStop() {
        notify.stopping()
        stopping = true
        device?.stop()
    }

    public func controlRecord(lastSeconds: Double, to path: String) throws -> ControlRecording {
        let written = try recorder.write(lastSeconds: lastSeconds, to: path)
        return ControlRecording(path: path, devices: written.devices.count, events: written.events, seconds: min(lastSeconds, recorder.seconds))
    }

    public func controlScenario(name: String, lastSeconds: Double, into directory: String) throws -> [String] {
        let running = host.status().filter { $0.state == .running }.map(\.name)
        return try scenarios.write(name: name, into: directory, folder: host.folder.path, plugins: running,
                                   seconds: min(lastSeconds, recorder.seconds)) { path in
            _ = try controlRecord(lastSeconds: lastSeconds, to: path)
        }
    }
}
