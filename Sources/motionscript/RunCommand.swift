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
        abstract: "Run a script over an event file; output is JSON Lines on stdout."
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "An event file (JSON Lines).")
    var events: String?

    @Flag(help: "Reload when the script or a Lua file it required changes (replays --events each time); stop with Ctrl-C.")
    var watch = false

    @Option(help: "Stop a script that runs longer than this many seconds (0 = no limit).")
    var timeout: Double = 0

    @Option(help: "The most memory the script's Lua state may use, in MiB (0 = no limit).")
    var memory: Int = 0

    func validate() throws {
        guard timeout >= 0 else { throw ValidationError("--timeout must be >= 0") }
        guard memory >= 0 else { throw ValidationError("--memory must be >= 0") }
    }

    func run() throws {
        let output = JSONLinesOutput()
        defer { output.flush() }
        let options = RunOptions(scriptPath: script, eventsPath: events, timeout: timeout, memoryLimit: memory * 1024 * 1024)
        if watch { return try runWatching(options, output: output) }
        do {
            try Runner.run(options, output: output)
        } catch let error as ScriptError {
            output.flush()
            fputs("error: \(error.message)\n", stderr)
            throw ExitCode(1)
        } catch let error as InputError {
            output.flush()
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }

    /// Ends with exit 0 on SIGINT/SIGTERM; 2 for a bad event file.
    private func runWatching(_ options: RunOptions, output: JSONLinesOutput) throws {
        do {
            let session = try WatchSession(options, output: output) { fputs($0 + "\n", stderr) }
            WatchSignals.stopOnSignals(session)
            try session.run()
        } catch let error as InputError {
            output.flush()
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        } catch let error as WatchError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }
}
