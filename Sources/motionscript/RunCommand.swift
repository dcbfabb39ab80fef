import Foundation
import ArgumentParser
import MotionHost
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script over an event file or a live device; output is JSON Lines on stdout."
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "An event file: JSON Lines, evemu or libinput recording, or raw evdev (detected by content).")
    var events: String?

    @Option(help: "A live input device, e.g. /dev/input/event5 (or a FIFO of raw input_event records).")
    var device: String?

    @Flag(help: "With --device: take the device from everyone else while running.")
    var grab = false

    @Flag(help: "Reload when the script or a Lua file it required changes (replays --events each time); stop with Ctrl-C.")
    var watch = false

    @Option(help: "Map evdev axis ranges onto a WxH surface, e.g. 1920x1080 (default: raw device units).")
    var surface: String?

    @Option(help: "Stop a script that runs longer than this many seconds (0 = no limit).")
    var timeout: Double = 0

    @Option(help: "The most memory the script's Lua state may use, in MiB (0 = no limit).")
    var memory: Int = 0

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: script, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: script) else {
            throw ValidationError("cannot read the script \(script)")
        }
        guard timeout >= 0 else { throw ValidationError("--timeout must be >= 0") }
        guard memory >= 0 else { throw ValidationError("--memory must be >= 0") }
        if events != nil && device != nil { throw ValidationError("use --events or --device, not both") }
        if grab && device == nil { throw ValidationError("--grab needs --device") }
        if let surface, EventFileOptions.parseSurface(surface) == nil {
            throw ValidationError("--surface must be WIDTHxHEIGHT with positive numbers, e.g. 1920x1080")
        }
    }

    func run() throws {
        var options = RunOptions(scriptPath: script, eventsPath: events, timeout: timeout,
                                 memoryLimit: memory * 1024 * 1024)
        options.devicePath = device
        options.grab = grab
        options.input.surface = surface.flatMap(EventFileOptions.parseSurface)
        // Before any script runs: stdout carries the JSON Lines and nothing else.
        let output = JSONLinesOutput.takingStandardOutput()
        // A failed write stops the script at once, as Ctrl-C would.
        output.onFailure = { Interruption.request() }
        Interruption.catchSignals()
        options.watchdog = Watchdog(timeout: timeout, what: script, sink: output.sink)
        if device != nil { output.flushEachLine = true }
        var status: Int32 = 0
        var message: String?
        do {
            if watch {
                try runWatching(options, output: output)
            } else if device != nil {
                StandardError.line("motionscript: \(try Runner.runLive(options, output: output))")
            } else {
                try Runner.run(options, output: output)
            }
        } catch let error as ScriptError {
            (status, message) = (1, "error: \(error.message)")
        } catch let error as InputError {
            (status, message) = (2, "error: \(error)")
        } catch let error as WatchError {
            (status, message) = (2, "error: \(error)")
        }
        output.flush()
        try Self.end(status: status, message: message, failure: output.failure, live: watch || device != nil)
    }

    /// How a run ends. A failed write comes first (it is why the script was stopped): a closed
    /// pipe quietly with 141, as a filter killed by SIGPIPE; any other failure with a message and
    /// 1. Then a signal: a run over a file was cut short (128 + the signal); a live or `--watch`
    /// session ends normally (0), saying where a script it interrupted was.
    static func end(status: Int32, message: String?, failure: LineSink.Failure?, live: Bool) throws {
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
                return
            }
            StandardError.line(message ?? "error: interrupted")
            throw ExitCode(Interruption.exitStatus(for: signal))
        }
        if let message { StandardError.line(message) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Ends with exit 0 on SIGINT/SIGTERM (or when the device goes away); 2 for bad input.
    private func runWatching(_ options: RunOptions, output: JSONLinesOutput) throws {
        let session = try WatchSession(options, output: output) { StandardError.line($0) }
        if let device = options.devicePath {
            let live = try LiveDevice(path: device, options: options.input, grab: options.grab)
            defer { live.close() }
            StandardError.line("motionscript: \(try session.runLive(live))")
        } else {
            try session.run()
        }
    }
}
