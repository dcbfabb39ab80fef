import ArgumentParser
import Foundation
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionInput
import MotionDiagnostics

/// `motionscript test`: batch-runs scenarios and ends stdout with `N passed, N failed`.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run scenarios (NAME.lua + events + NAME.expected.jsonl) and compare their output.",
        discussion: """
            A scenario is NAME.lua beside NAME.events.jsonl (or .evemu, .yml, .raw) and \
            NAME.expected.jsonl. Each runs in a worker process; output lines are compared as \
            JSON, numbers within 1e-9. Exit status: 0 all passed, 1 any failed, 2 bad usage, \
            no scenarios found, or a --junit path that cannot be written.
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

    @Option(parsing: .unconditional, help: "Units of evdev positions: 'auto' (the default: millimetres where the device reports its resolution), 'mm', 'raw', or WxH (e.g. 1920x1080); a scenario's '-- surface:' line wins.")
    var surface: String?

    @Option(help: "Axis ranges XMIN:XMAX[:XRES],YMIN:YMAX[:YRES] for raw events without a device description (e.g. 0:4095,0:4095; a resolution in units per mm, 0:1200:12,0:800:12, makes positions millimetres).")
    var axes: String?

    @Option(help: "The focused application for every scenario (what 'apps =' is decided against); a scenario's '-- app:' line wins.")
    var app: String?

    func validate() throws {
        _ = try InputOptions.parse(surface: surface, axes: axes)
        try OptionChecks.app(app)
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be >= 1, got \(jobs)") }
        try OptionChecks.timeout(timeout)
        try OptionChecks.memory(memory)
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
        options.app = app
        let searched = paths.isEmpty ? ["."] : paths
        let batch = ScenarioBatch(
            paths: searched,
            options: options,
            filter: filter,
            shard: try shard.map { try ScenarioSelection.parseShard($0) })
        let scenarios: [Scenario]
        do {
            scenarios = try batch.select()
        } catch let error as ScenarioUsageError {
            throw ValidationError(error.description)
        }
        // A report that cannot be written is bad usage, said before the batch, not after it.
        if let junit {
            do { try OutputFile.checkWritable(junit) } catch {
                StandardError.write("error: cannot write the JUnit report \(junit): \(error.reason)\n")
                throw ExitCode(2)
            }
        }
        // Nothing to test is a mistake (a CI pointed at the wrong folder must not go green),
        // unless it is an empty shard of scenarios that exist.
        if !scenarios.contains(where: { $0.problem?.isSkip != true }) {
            let unsharded = ScenarioBatch(paths: searched, filter: filter)
            let haveScenarios = shard != nil && ((try? unsharded.select()) ?? []).contains { $0.problem?.isSkip != true }
            let after = filter != nil || shard != nil ? " (after --filter/--shard)" : ""
            StandardError.write("motionscript: no scenarios found in \(searched.joined(separator: " "))\(after)\n")
            if !haveScenarios { throw ExitCode(2) }
        }
        ScenarioRunner.stopWorkersOnSignals()
        let showProgress = isatty(STDERR_FILENO) != 0
        let report = try batch.run(scenarios) { done, total, result in
            guard showProgress else { return }
            StandardError.write("\r\u{1B}[K[\(done)/\(total)] \(ReportText.visible(result.scenario.name))")
        }
        if showProgress { StandardError.write("\r\u{1B}[K") }
        for line in report.noteLines { StandardError.write(line + "\n") }
        var status = report.exitCode
        if let junit {
            do {
                try OutputFile.write(Array(JUnitReport.xml(report).utf8), to: junit)
            } catch {
                StandardError.write("error: cannot write the JUnit report \(junit): \(error.reason)\n")
                status = 2
            }
        }
        print(report.lines.joined(separator: "\n"))
        if status != 0 { throw ExitCode(status) }
    }
}

extension Scenario.Problem {
    var isSkip: Bool {
        if case .skip = self { return true }
        return false
    }
}
