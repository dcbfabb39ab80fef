import ArgumentParser
import Foundation
import MotionHost
import MotionInput

/// `motionscript test`: batch-runs scenarios and ends stdout with `N passed, N failed`.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run scenarios (NAME.lua + events + NAME.expected.jsonl) and compare their output.",
        discussion: """
            A scenario is NAME.lua beside NAME.events.jsonl (or .evemu, .yml, .raw) and \
            NAME.expected.jsonl. Output lines are compared as JSON, numbers within 1e-9. \
            Exit status: 0 all passed, 1 any failed, 2 bad usage.
            """
    )

    @Argument(help: "Scenario scripts or folders to search (default: the current folder).")
    var paths: [String] = []

    @Option(parsing: .unconditional, help: "Scenarios to run at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Write each scenario's output as its expected file instead of comparing.")
    var update = false

    @Option(help: "Also write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "Run shard I of N (1-based), e.g. 2/3: a stable share of the scenarios.")
    var shard: String?

    @Option(help: "Only scenarios whose name contains PATTERN, or matches it as a glob (*, ?, [...]).")
    var filter: String?

    @Option(parsing: .unconditional, help: "Seconds one scenario may run (0 = no limit).")
    var timeout: Double = ScenarioOptions.defaultTimeout

    @Option(parsing: .unconditional, help: "The most memory each scenario's Lua state may use, in MiB (0 = no limit).")
    var memory: Int = ScenarioOptions.defaultMemoryLimit >> 20

    @Flag(help: "Run the scenarios with Lua's full standard library (by default they run sandboxed: no processes, file writes, native code or debug library).")
    var trusted = false

    @Option(parsing: .unconditional, help: "Map evdev axis ranges onto a WxH surface (e.g. 1920x1080) or 'mm' for millimetres; a scenario's '-- surface:' line wins.")
    var surface: String?

    @Option(help: "Axis ranges XMIN:XMAX,YMIN:YMAX for raw events without a device description (e.g. 0:4095,0:4095).")
    var axes: String?

    func validate() throws {
        _ = try InputOptions.parse(surface: surface, axes: axes)
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be >= 1, got \(jobs)") }
        guard timeout >= 0 else { throw ValidationError("--timeout must be >= 0 seconds (0 = no limit), got \(timeout)") }
        guard memory >= 0 else { throw ValidationError("--memory must be >= 0 MiB (0 = no limit), got \(memory)") }
        guard memory <= RunCommand.maxMemory else { throw ValidationError("--memory must be at most \(RunCommand.maxMemory) MiB, got \(memory)") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or folder: \(path)")
        }
        if let shard {
            do { _ = try ScenarioSelection.parseShard(shard) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        var options = ScenarioOptions(jobs: jobs ?? ScenarioOptions.defaultJobs, timeout: timeout, memoryLimit: memory << 20, update: update)
        options.sandbox = !trusted
        options.input = try InputOptions.parse(surface: surface, axes: axes)
        let batch = ScenarioBatch(
            paths: paths.isEmpty ? ["."] : paths,
            options: options,
            filter: filter,
            shard: try shard.map { try ScenarioSelection.parseShard($0) })
        let showProgress = isatty(STDERR_FILENO) != 0
        let report: ScenarioReport
        do {
            report = try batch.run { done, total, result in
                guard showProgress else { return }
                fputs("\r\u{1B}[K[\(done)/\(total)] \(result.scenario.name)", stderr)
            }
        } catch let error as ScenarioUsageError {
            throw ValidationError(error.description)
        }
        if showProgress { fputs("\r\u{1B}[K", stderr) }
        if report.results.isEmpty {
            // Exit 0 (nothing failed), but a CI job pointed at the wrong folder should hear of it.
            let searched = (paths.isEmpty ? ["."] : paths).joined(separator: " ")
            fputs("motionscript: no scenarios found in \(searched)\(filter != nil || shard != nil ? " (after --filter/--shard)" : "")\n", stderr)
        }
        if let junit {
            do {
                try JUnitReport.xml(report.results).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                fputs("error: cannot write \(junit): \(error.localizedDescription)\n", stderr)
                print(report.lines.joined(separator: "\n"))
                throw ExitCode(2)
            }
        }
        print(report.lines.joined(separator: "\n"))
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
