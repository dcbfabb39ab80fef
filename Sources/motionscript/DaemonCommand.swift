import ArgumentParser
import Foundation
import MotionActions
import MotionControl
import MotionDaemon
import MotionDesktop
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run every plugin (each top-level .lua file) of a config folder, each in a Lua state of its own, reloading each when its file changes.",
        discussion: "Output is JSON Lines on stdout, each line tagged with its plugin; lifecycle lines say when a plugin loaded, reloaded, unloaded, failed or was disabled. See docs/daemon.md."
    )

    @Argument(help: "The config folder (default: $XDG_CONFIG_HOME/motionscript, else ~/.config/motionscript).")
    var folder: String?

    @Option(help: "Replay an event file through every plugin, then stop (deterministic: a configuration tested as a whole).")
    var events: String?

    @OptionGroup var live: LiveInputOptions

    @Option(parsing: .unconditional, help: "Seconds one call into a plugin may run before the plugin is disabled (0 = no limit; a plugin's header may set its own).")
    var timeout: Double = PluginLimits.defaultTimeout

    @Option(parsing: .unconditional, help: "The most memory a plugin's Lua state may use, in MiB (0 = no limit; a plugin's header may set its own).")
    var memory: Int = PluginLimits.defaultMemoryMiB

    @Option(help: ArgumentHelp("The control socket (default: $XDG_RUNTIME_DIR/motionscript/control.sock).", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("flight-recorder"), parsing: .unconditional,
            help: ArgumentHelp("Seconds of raw input the flight recorder keeps per device for `ctl record` and `ctl scenario` (0 = off).", valueName: "seconds"))
    var flightRecorder: Double = 60

    @Option(help: "The focused application for every plugin (what 'apps =' is decided against): no desktop provider, app lines in the events ignored.")
    var app: String?

    @Option(name: .customLong("app-provider"), help: "Live input: where the focused application comes from: sway (also i3), hyprland, kwin, gnome, wlroots, x11 or none (default: chosen from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, DISPLAY; docs/desktop.md).")
    var appProvider: String?

    @Flag(help: "Live input: a desktop notification (notify-send) when a plugin fails or is disabled, at most one a plugin a minute.")
    var notify = false

    func validate() throws {
        if notify && events != nil { throw ValidationError("--notify is for live input (a replay's failures are its exit status)") }
        try OptionChecks.seconds("--flight-recorder", flightRecorder, zeroMeans: "off")
        try OptionChecks.timeout(timeout)
        try OptionChecks.memory(memory)
        try OptionChecks.oneInput(events: events, devices: live.device)
        try live.validate(live: events == nil)
        try OptionChecks.app(app)
        try OptionChecks.appProvider(appProvider, live: events == nil, app: app)
    }

    /// Live input when no --events: the devices asked for, or touchpads and touchscreens.
    private var selectors: [DeviceSelector] {
        (live.device.isEmpty ? ["touchpad", "touchscreen"] : live.device).map(DeviceSelector.init)
    }

    /// The default config folder, made when missing (a fresh install's service runs at once).
    static func defaultFolder() throws -> String {
        let (path, created) = try ConfigFolder.makingDefault()
        if created {
            StandardError.line("motionscript: made the config folder \(path) (empty): put plugins there, e.g. cp \(ConfigFolder.examplesFolder)/desktop.lua \(path)/")
        }
        return path
    }

    func run() throws {
        let folder: ConfigFolder
        do {
            folder = try ConfigFolder(self.folder ?? Self.defaultFolder())
        } catch let error as DaemonError {
            throw ValidationError(error.description)
        }
        let isLive = events == nil
        var options = RunOptions(scriptPath: "")
        options.input = try live.inputOptions()
        options.grab = live.grab
        options.app = app
        options.actions = live.actionHost(live: isLive)
        // A plugin reading stdin would block every plugin: it reads end-of-file at once instead.
        let null = open("/dev/null", O_RDONLY)
        if null >= 0 { dup2(null, STDIN_FILENO); close(null) }
        let standard = JSONLinesOutput.takingStandardOutput()
        // Live, stderr never stalls the plugins either: diagnostics and what plugins print are
        // queued (256 KiB) for a thread of their own; a reader that stops reading loses lines,
        // counted (docs/daemon.md). The end's message is queued too, and waited for 2 s at most.
        let diagnostics = isLive ? BoundedWriter(sink: LineSink(fileDescriptor: STDERR_FILENO), capacity: 256 << 10,
                                                 notice: BoundedWriter.diagnosticNotice) : nil
        if let diagnostics { StandardError.divert { diagnostics.append($0) } }
        defer {
            StandardError.divert(nil)
            diagnostics?.close()
        }
        // A replay waits for its reader (every line, in order); live output never stalls the plugins.
        let router = OutputRouter(isLive ? .bounded(BoundedWriter(sink: standard.sink)) : .sink(standard.sink))
        // Output that cannot be written stops the host (its own policy: `PluginHost.stopReason`),
        // not every Lua state as a signal does.
        Interruption.catchSignals()
        let host = PluginHost(folder: folder, options: options, router: router,
                              defaults: PluginLimits(timeout: timeout, memoryMiB: memory))
        host.hangRecord = HangRecord(path: HangRecord.defaultPath)
        host.watchdog = Watchdog(record: host.hangRecord, sink: standard.sink)
        var status: Int32 = 0
        var message: String?
        do {
            // The one virtual keyboard and mouse of every plugin, made before any input: the
            // desktop has it open by the first gesture, whose keys would otherwise reach a device
            // nobody reads yet. Without /dev/uinput access (the usual state right after
            // installing) the daemon runs all the same: plugins that only launch commands work,
            // and every key or mouse action tries again, failing as its plugin's error
            // (docs/desktop.md). Live, after the control socket is taken: a second daemon (an
            // autostart entry launched again) makes no device and says nothing but why it ends.
            func openVirtualDevice() throws {
                do {
                    try options.actions.openDevice()
                } catch let error as ActionError {
                    StandardError.line("motionscript: warning: no virtual keyboard and mouse yet (each key or mouse action tries again): \(error.message)")
                }
            }
            if let events {
                try openVirtualDevice()
                let source = try Replay.openEvents(path: events, options: options.input)
                let proxy = live.proxy ? { (host: PluginHost) in
                    try ProxyReplay(source: source, eventsPath: events, outputPath: live.proxyOutput,
                                    line: { router.value(t: $0, name: "proxy", value: $1) }, consumers: host.eachRecognizer)
                } : nil
                try HostLoop.replay(source, host: host, proxy: proxy)
                // A configuration tested as a whole passes only if every plugin ran to the end.
                let broken = host.status().filter { $0.state != .running }.map(\.name)
                if !broken.isEmpty {
                    status = 1
                    message = "motionscript: \(broken.joined(separator: ", ")) did not run to the end (see above)"
                }
            } else {
                // The devices, focus, proxy and frame chain as `run --device` has them, and the service (`DaemonLive`).
                let daemon = DaemonLive(selectors: selectors, socketPath: socket ?? ControlSocketPath.standard(),
                                        flightRecorderSeconds: flightRecorder, appProvider: appProvider, notify: notify, proxy: live.proxy,
                                        scenarioDeclarations: [live.surface.map { "surface: \($0)" }, live.axes.map { "axes: \($0)" }].compactMap { $0 })
                do {
                    _ = try daemon.run(host: host, options: options, openVirtualDevice: openVirtualDevice)
                } catch let error as ControlSocketBusy {
                    StandardError.line("error: \(error.message)")
                    throw ExitCode(1)
                }
            }
        } catch let error as InputError {
            (status, message) = (2, "error: \(error)")
        } catch let error as WatchError {
            (status, message) = (1, "error: \(error)")
        } catch let error as ActionError {
            (status, message) = (1, "error: \(error)")
        }
        router.flush()
        if case .bounded(let writer) = router.destination { writer.close() }
        try RunCommand.end(status: status, message: message, failure: router.failure, live: isLive)
    }
}
