import ArgumentParser
import Foundation
import MotionActions
import MotionDesktop
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script over an event file or a live device; output is JSON Lines on stdout."
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "An event file: JSON Lines, evemu or libinput recording, or raw evdev (detected by content).")
    var events: String?

    @OptionGroup var live: LiveInputOptions

    @Flag(help: "Reload when the script or a Lua file it required changes (replays --events each time); stop with Ctrl-C.")
    var watch = false

    @Option(help: "Also draw the run as an SVG picture to this file (with --events; see `motionscript plot`).")
    var plot: String?

    @Option(parsing: .unconditional, help: "Stop a script that runs longer than this many seconds (0 = no limit).")
    var timeout: Double = 0

    @Option(parsing: .unconditional, help: "The most memory the script's Lua state may use, in MiB (0 = no limit).")
    var memory: Int = 0

    @Option(help: "The focused application for the whole run (what 'apps =' is decided against): no desktop provider, app lines in the events ignored.")
    var app: String?

    @Option(name: .customLong("app-provider"), help: "With --device: where the focused application comes from: sway (also i3), hyprland, kwin, gnome, wlroots, x11 or none (default: chosen from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, DISPLAY; docs/desktop.md).")
    var appProvider: String?

    @Flag(help: "Run the script in the restricted standard library that `motionscript test` uses (no processes, file writes, native code or debug library).")
    var sandbox = false

    @Flag(help: "Say why each gesture fired or did not: every recognizer's state changes with the reason, one line each on stderr (`0.200 swipes.lua:7 swipe#2(fingers=3) failed: too short 12 < 20 units`).")
    var explain = false

    @Argument(parsing: .postTerminator,
              help: "Arguments for the script after --: its `arg` (arg[0] the script) and `...`, as lua gives them.")
    var scriptArguments: [String] = []

    func validate() throws {
        try OptionChecks.script(script)
        if let problem = SwappedArguments.problem(script: script, events: events) { throw ValidationError(problem) }
        try OptionChecks.timeout(timeout)
        try OptionChecks.memory(memory)
        try OptionChecks.oneInput(events: events, devices: device)
        try live.validate(live: !device.isEmpty)
        if live.proxy && watch {
            throw ValidationError(device.isEmpty ? "--proxy replays the events once: use it without --watch"
                                                 : "--proxy on live input does not go with --watch (each reload would make the clones again): use it without --watch")
        }
        if plot != nil && (events == nil || watch) { throw ValidationError("--plot needs --events (and no --watch)") }
        if plot != nil && live.proxy { throw ValidationError("use --plot or --proxy, not both (the picture has no place for the clone's decisions)") }
        if plot != nil && explain { throw ValidationError("use --plot or --explain, not both (the picture shows the recognizers' states)") }
        if watch, let events, Self.isStream(events) {
            throw ValidationError("--watch replays the events on every reload, and \(events) is a pipe or device that can be read only once: save it to a file first")
        }
        try OptionChecks.app(app)
        try OptionChecks.appProvider(appProvider, live: !device.isEmpty, app: app)
        if act && sandbox { throw ValidationError("--act performs actions, which a sandboxed script may not: use one or the other") }
    }

    private var device: [String] { live.device }
    private var grab: Bool { live.grab }
    private var act: Bool { live.act }

    /// A pipe, FIFO, socket or character device: read once, never replayed.
    static func isStream(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
    }

    func run() throws {
        var options = RunOptions(scriptPath: script, eventsPath: events, timeout: timeout,
                                 memoryLimit: memory * 1024 * 1024)
        options.devices = device
        options.sandbox = sandbox
        options.scriptArguments = scriptArguments
        options.grab = grab
        options.proxy = live.proxy
        options.proxyOutput = live.proxyOutput
        options.app = app
        options.appProvider = appProvider
        if explain { options.recognizerObserver = RecognizerExplainer { StandardError.line($0) } }
        // Live input performs actions unless --dry-run; replays only with --act; a sandboxed
        // script never (typing and starting programs reach outside its Lua state).
        options.actions = live.actionHost(live: !device.isEmpty, allowed: !sandbox)
        options.input = try live.inputOptions()
        // Before any script runs: stdout carries the JSON Lines and nothing else.
        let output = JSONLinesOutput.takingStandardOutput()
        // A failed write stops the script at once, as Ctrl-C would.
        output.onFailure = { Interruption.request() }
        Interruption.catchSignals()
        options.watchdog = Watchdog(timeout: timeout, what: script, sink: output.sink)
        var status: Int32 = 0
        var message: String?
        var survivedErrors = false
        do {
            if watch {
                try runWatching(options, output: output)
            } else if !device.isEmpty {
                let result = try Runner.runLiveSession(options, output: output) { StandardError.line($0) }
                output.flush()
                if result.callbackErrors > 0 {
                    StandardError.line("motionscript: \(result.reason); \(result.callbackErrors) callback error\(result.callbackErrors == 1 ? "" : "s") (see above)")
                    status = 1
                    survivedErrors = true
                } else {
                    StandardError.line("motionscript: \(result.reason)")
                }
            } else if let plot {
                try PlotCommand.plot(options, to: plot, forward: output)
            } else {
                try Runner.run(options, output: output)
                if events == nil { StandardError.line("motionscript: no --events or --device: ran the script's setup only") }
            }
        } catch let error as ScriptError {
            (status, message) = (1, "error: \(error.message)")
        } catch let error as InputError {
            (status, message) = (2, "error: \(error)")
        } catch let error as WatchError {
            (status, message) = (2, "error: \(error)")
        }
        output.flush()
        try Self.end(status: status, message: message, failure: output.failure, live: watch || !device.isEmpty,
                     survivedErrors: survivedErrors)
    }

    /// How a run ends. A failed write comes first (it is why the script was stopped): a closed
    /// pipe quietly with 141, as a filter killed by SIGPIPE; any other failure with a message and
    /// 1. Then a signal: a run over a file was cut short (128 + the signal); a live or `--watch`
    /// session ends normally (0), saying where a script it interrupted was.
    static func end(status: Int32, message: String?, failure: LineSink.Failure?, live: Bool,
                    survivedErrors: Bool = false) throws {
        switch failure {
        case .closedPipe?:
            throw ExitCode(141)
        case .error(let reason)?:
            StandardError.line("error: cannot write the output: \(reason)")
            throw ExitCode(1)
        case nil:
            break
        }
        if let signal = Interruption.signal {
            if live {
                if let message { StandardError.line("motionscript: stopped: \(message.dropFirst("error: ".count))") }
                // Callback errors survived on live input still make the exit status 1.
                if survivedErrors { throw ExitCode(1) }
                return
            }
            StandardError.line(message ?? "error: interrupted")
            throw ExitCode(Interruption.exitStatus(for: signal))
        }
        if let message { StandardError.line(message) }
        if status != 0 { throw ExitCode(status) }
    }

    /// The largest --memory (MiB) whose byte count fits the allocator's counter: 2^43 MiB = 8 EiB.
    static let maxMemory = Int.max >> 20

    /// Ends with exit 0 on SIGINT/SIGTERM (or when the device goes away); 2 for bad input.
    private func runWatching(_ options: RunOptions, output: JSONLinesOutput) throws {
        let session = try WatchSession(options, output: output) { StandardError.line($0) }
        if let warning = UnwatchedFilesystem.warning(for: options.scriptPath, what: "the script",
                                                     reload: "restarting `motionscript run` loads them") {
            StandardError.line("motionscript: " + warning)
        }
        if !options.deviceSelectors.isEmpty {
            // SIGINT/SIGTERM reach the session's file watcher, which ends the session its own way.
            let live = try LiveInput(selectors: options.deviceSelectors, options: options.input, grab: options.grab,
                                     wakesOnSignals: false) { StandardError.line($0) }
            defer { live.close() }
            // The focused application (`apps =`), given to every version loaded.
            try live.followFocus(app: options.app, provider: options.appProvider, diagnostics: { StandardError.line($0) }) {
                session.pipeline.setFocusedApp($0)
            }
            StandardError.line("motionscript: \(try session.runLive(live.devices) { live.chain(to: $0) })")
        } else {
            try session.run()
        }
    }
}
