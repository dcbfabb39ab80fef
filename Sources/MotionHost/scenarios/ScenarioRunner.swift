import Foundation
import MotionInput
import MotionLua

/// How scenarios run.
public struct ScenarioOptions: Sendable {
    /// Scenarios run at once, each on its own thread with its own Lua state.
    public var jobs: Int
    /// Seconds one scenario may take, setup included (0 = no limit).
    public var timeout: Double
    /// Bytes each scenario's Lua state may allocate (0 = no limit).
    public var memoryLimit: Int
    /// Write the output as the expected file instead of comparing.
    public var update: Bool
    /// Output lines one scenario may write; more fails it (its lines are not Lua memory).
    public var maxOutputLines: Int

    public static let defaultTimeout = 10.0
    public static let defaultMemoryLimit = 256 << 20
    public static let defaultMaxOutputLines = 1_000_000
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public init(jobs: Int = ScenarioOptions.defaultJobs, timeout: Double = ScenarioOptions.defaultTimeout,
                memoryLimit: Int = ScenarioOptions.defaultMemoryLimit, update: Bool = false,
                maxOutputLines: Int = ScenarioOptions.defaultMaxOutputLines) {
        self.maxOutputLines = maxOutputLines
        self.jobs = jobs
        self.timeout = timeout
        self.memoryLimit = memoryLimit
        self.update = update
    }
}

/// Runs scenarios in parallel. Runtimes share nothing (one Lua state each, used by one thread
/// only; the binding table is registered thread-safely), so workers just take the next
/// scenario from a shared index. A failing scenario never stops the others.
public enum ScenarioRunner {
    /// Results in the order of `scenarios`. `progress` is called (under a lock, from worker
    /// threads) after each scenario with the number done so far.
    public static func run(_ scenarios: [Scenario], options: ScenarioOptions,
                           progress: ((Int, ScenarioResult) -> Void)? = nil) -> [ScenarioResult] {
        let state = SharedState(count: scenarios.count)
        let workers = max(1, min(options.jobs, scenarios.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let index = state.next() {
                    let result = runOne(scenarios[index], options: options)
                    state.finish(index, result, progress: progress)
                }
                group.leave()
            }
            thread.stackSize = 16 << 20  // Lua's C recursion (deep pcall/gsub nesting) needs room
            thread.start()
        }
        group.wait()
        return state.results.map { $0! }
    }

    /// Runs one scenario to its outcome; every error becomes a failure with its reason.
    public static func runOne(_ scenario: Scenario, options: ScenarioOptions) -> ScenarioResult {
        let started = Clock.monotonic()
        func result(_ outcome: ScenarioResult.Outcome) -> ScenarioResult {
            ScenarioResult(scenario: scenario, outcome: outcome, duration: Clock.monotonic() - started)
        }
        switch scenario.problem {
        case .skip(let reason)?: return result(.skipped(reason))
        case .fail(let reason)?: return result(.failed(reason))
        case nil: break
        }
        guard let eventsPath = scenario.eventsPath else { return result(.failed("no events file")) }
        var expected: [OutputComparison.ExpectedLine] = []
        if !options.update {
            guard scenario.hasExpected else {
                return result(.failed("missing expected file \(fileName(scenario.expectedPath)) (create it with --update)"))
            }
            do {
                let text = try String(contentsOfFile: scenario.expectedPath, encoding: .utf8)
                expected = try OutputComparison.parseExpected(text, file: scenario.expectedPath)
            } catch let error as ExpectedFileError {
                return result(.failed(error.description))
            } catch {
                return result(.failed("cannot read \(scenario.expectedPath): \(error.localizedDescription)"))
            }
        }
        let lines: [String]
        do {
            lines = try output(of: scenario.scriptPath, events: eventsPath, options: options)
        } catch let error as ScriptError {
            return result(.failed(describe(error, options: options)))
        } catch let error as InputError {
            return result(.failed("bad events file: \(error)"))
        } catch {
            return result(.failed("\(error)"))
        }
        if options.update {
            let text = lines.map { $0 + "\n" }.joined()
            if scenario.hasExpected, (try? String(contentsOfFile: scenario.expectedPath, encoding: .utf8)) == text {
                return result(.passed)
            }
            do {
                try text.write(toFile: scenario.expectedPath, atomically: true, encoding: .utf8)
            } catch {
                return result(.failed("cannot write \(scenario.expectedPath): \(error.localizedDescription)"))
            }
            return result(.updated)
        }
        if let difference = OutputComparison.firstDifference(expected: expected, actual: lines) {
            return result(.failed(difference))
        }
        return result(.passed)
    }

    /// The script's output over the events, under the time limit and memory cap.
    static func output(of script: String, events: String, options: ScenarioOptions) throws -> [String] {
        let source = try Runner.openEvents(path: events)
        let output = CappedOutput(maxLines: options.maxOutputLines)
        let runtime = try LuaRuntime(scriptPath: script, output: output, memoryLimit: options.memoryLimit)
        defer { runtime.close() }
        let tooMuch = ScriptError(.memory, "\(script): the output exceeded \(options.maxOutputLines) lines")
        // Stops Lua code at once (its hook sees the deadline passed) and fails what remains.
        output.onOverflow = { [unowned runtime] in
            runtime.setTimeout(1e-9)
            runtime.fail(.memory, tooMuch.message)
        }
        let deadline = options.timeout > 0 ? Clock.monotonic() + options.timeout : .infinity
        runtime.setTimeout(options.timeout)
        do {
            try runtime.load()
            try Runner.feed(source, to: runtime, timeout: options.timeout, deadline: deadline)
        } catch is ScriptError where output.overflowed {
            throw tooMuch
        }
        if output.overflowed { throw tooMuch }
        return output.lines
    }

    static func describe(_ error: ScriptError, options: ScenarioOptions) -> String {
        let firstLine = error.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
        switch error.kind {
        case .timeout:
            return "timeout: stopped after the time limit of \(formatSeconds(options.timeout)) s (\(firstLine))"
        case .memory where error.message.hasSuffix("lines"):
            return "too much output: \(firstLine)"
        case .memory:
            return "out of memory: the script exceeded its memory limit of \(formatBytes(options.memoryLimit)) (\(firstLine))"
        case .syntax, .runtime:
            return "script error: \(error.message)"
        }
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    static func formatBytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    static func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }
}

/// The work index and the results, shared by the workers.
private final class SharedState: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    var results: [ScenarioResult?]

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func finish(_ index: Int, _ result: ScenarioResult, progress: ((Int, ScenarioResult) -> Void)?) {
        lock.withLock {
            results[index] = result
            done += 1
            progress?(done, result)
        }
    }
}
