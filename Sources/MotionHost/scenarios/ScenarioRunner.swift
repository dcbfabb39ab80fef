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
    /// Run scripts in the restricted standard library (`LuaRuntime(sandbox:)`); `--trusted` lifts it.
    public var sandbox = true
    /// Surface and axis ranges for every scenario (`test --surface/--axes`); a scenario's own
    /// declarations (`ScenarioSurface`) take precedence.
    public var input = EventFileOptions()

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
/// only; bindings are immutable values each runtime indexes itself), so workers just take the next
/// scenario from a shared index. A failing scenario never stops the others.
public enum ScenarioRunner {
    /// Results in the order of `scenarios`. `progress` is called (under a lock, from worker
    /// threads) after each scenario with the number done so far.
    public static func run(_ scenarios: [Scenario], options: ScenarioOptions,
                           progress: ((Int, ScenarioResult) -> Void)? = nil) -> [ScenarioResult] {
        let state = SharedState(count: scenarios.count)
        let group = DispatchGroup()
        func startWorker() {
            group.enter()
            let worker = state.newWorker()
            let thread = Thread {
                while let index = state.next(for: worker) {
                    let result = runOne(scenarios[index], options: options)
                    // An abandoned worker's late result is dropped, and it takes no more work.
                    guard state.finish(index, result, by: worker, progress: progress) else { return }
                }
                group.leave()
            }
            thread.stackSize = 16 << 20  // Lua's C recursion (deep pcall/gsub nesting) needs room
            thread.start()
        }
        for _ in 0..<max(1, min(options.jobs, scenarios.count)) { startWorker() }
        // The Lua hook and the checks between frames stop scripts that run Lua code; one blocked
        // inside C (os.execute, io.read) runs neither. It fails once it is `blockedGrace` past its
        // time limit, its thread is abandoned and a new worker takes the remaining scenarios.
        let limit = options.timeout > 0 ? options.timeout + Self.blockedGrace : .infinity
        while group.wait(timeout: .now() + 0.1) == .timedOut {
            for stuck in state.running(longerThan: limit) {
                let reason = "timeout: still running \(Self.blockedGrace) s after the time limit of \(options.timeout) s (blocked outside Lua, e.g. in os.execute or io.read); abandoned"
                let result = ScenarioResult(scenario: scenarios[stuck.index], outcome: .failed(reason), duration: limit)
                if state.abandon(stuck.worker, index: stuck.index, result, progress: progress) {
                    group.leave()
                    startWorker()
                }
            }
        }
        return state.results.map { $0! }
    }

    /// How long past its time limit a scenario blocked outside Lua is waited for.
    public static let blockedGrace = 2.0

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
        let input = try ScenarioSurface.options(for: script, base: options.input)
        let source = try Runner.openEvents(path: events, options: input)
        // The kept lines are Swift memory: bounded by the memory limit too.
        let output = CappedOutput(maxLines: options.maxOutputLines, maxBytes: options.memoryLimit)
        let runtime = try LuaRuntime(scriptPath: script, output: output, memoryLimit: options.memoryLimit,
                                     sandbox: options.sandbox)
        defer { runtime.close() }
        Runner.setScreen(of: runtime, input, source: source)
        var tooMuch: ScriptError {
            ScriptError(.memory, output.overflowedBytes
                ? "\(script): the output exceeded \(options.memoryLimit) bytes of lines"
                : "\(script): the output exceeded \(options.maxOutputLines) lines")
        }
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
    private var workers = 0
    /// What each worker runs now, and since when.
    private var running: [Int: (index: Int, started: Double)] = [:]
    private var abandoned: Set<Int> = []

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    func newWorker() -> Int {
        lock.withLock {
            workers += 1
            return workers
        }
    }

    func next(for worker: Int) -> Int? {
        lock.withLock {
            guard nextIndex < count, !abandoned.contains(worker) else { return nil }
            defer { nextIndex += 1 }
            running[worker] = (nextIndex, Clock.monotonic())
            return nextIndex
        }
    }

    /// Records a result; false when the worker was abandoned meanwhile (the result is dropped).
    func finish(_ index: Int, _ result: ScenarioResult, by worker: Int,
                progress: ((Int, ScenarioResult) -> Void)?) -> Bool {
        lock.withLock {
            guard !abandoned.contains(worker) else { return false }
            running[worker] = nil
            results[index] = result
            done += 1
            progress?(done, result)
            return true
        }
    }

    func running(longerThan limit: Double) -> [(worker: Int, index: Int)] {
        lock.withLock {
            let now = Clock.monotonic()
            return running.filter { now - $0.value.started > limit }.map { ($0.key, $0.value.index) }
        }
    }

    /// Gives up on a worker blocked in its scenario; false if it finished just now.
    func abandon(_ worker: Int, index: Int, _ result: ScenarioResult,
                 progress: ((Int, ScenarioResult) -> Void)?) -> Bool {
        lock.withLock {
            guard running[worker]?.index == index else { return false }
            running[worker] = nil
            abandoned.insert(worker)
            results[index] = result
            done += 1
            progress?(done, result)
            return true
        }
    }
}
