import Foundation
import MotionPluginHost
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// How scenarios run.
public struct ScenarioOptions: Sendable {
    /// Scenarios run at once, each in a worker process of its own.
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
    public var input = EventFileOptions.desktopDefault
    /// The focused application for every scenario (`test --app`); a scenario's `-- app:`
    /// declaration takes precedence.
    public var app: String?
    /// Output bytes one scenario may write; more fails it.
    public var maxOutputBytes: Int
    /// The motionscript binary whose `scenario-worker` subcommand runs scenarios.
    public var workerExecutable: String

    public static let defaultTimeout = 10.0
    public static let defaultMemoryLimit = 256 << 20
    public static let defaultMaxOutputLines = 1_000_000
    public static let defaultMaxOutputBytes = 256 << 20
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
    /// This process's own executable: right for the motionscript command.
    public static var defaultWorkerExecutable: String { "/proc/self/exe" }

    public init(jobs: Int = ScenarioOptions.defaultJobs, timeout: Double = ScenarioOptions.defaultTimeout,
                memoryLimit: Int = ScenarioOptions.defaultMemoryLimit, update: Bool = false,
                maxOutputLines: Int = ScenarioOptions.defaultMaxOutputLines,
                maxOutputBytes: Int = ScenarioOptions.defaultMaxOutputBytes,
                workerExecutable: String = ScenarioOptions.defaultWorkerExecutable) {
        self.maxOutputLines = maxOutputLines
        self.maxOutputBytes = maxOutputBytes
        self.jobs = jobs
        self.timeout = timeout
        self.memoryLimit = memoryLimit
        self.update = update
        self.workerExecutable = workerExecutable
    }
}

/// Runs scenarios in parallel, each in a worker process (a pool: a worker runs scenario after
/// scenario until one kills it). The batch reads expected files, compares and reports; workers
/// only run scripts. A scenario that exits its process, crashes it or blocks past its time
/// limit is that scenario's error, and a new worker takes the next one.
public enum ScenarioRunner {
    /// Makes SIGINT and SIGTERM kill the workers (and their children) before the batch exits.
    public static func stopWorkersOnSignals() {
        WorkerRegistry.shared.stopOnSignals()
    }

    /// How long past its time limit a scenario blocked outside Lua (where the Lua hook cannot
    /// stop it) is waited for before its worker is killed.
    public static let blockedGrace = 1.0

    /// Results in the order of `scenarios`. `progress` is called (under a lock, from the pool's
    /// threads) after each scenario with the number done so far.
    public static func run(_ scenarios: [Scenario], options: ScenarioOptions,
                           progress: (@Sendable (Int, ScenarioResult) -> Void)? = nil) -> [ScenarioResult] {
        let state = SharedState(count: scenarios.count)
        let slots = max(1, min(options.jobs, scenarios.count))
        let group = DispatchGroup()
        for _ in 0..<slots {
            group.enter()
            Thread {
                var worker: WorkerProcess?
                while let index = state.next() {
                    state.finish(index, runOne(scenarios[index], options: options, worker: &worker), progress: progress)
                }
                worker = nil  // kills it and what it started
                group.leave()
            }.start()
        }
        group.wait()
        return state.results.map { $0! }
    }

    /// Runs one scenario (in `worker`, started if nil, dropped if the scenario killed it) to
    /// its outcome; every problem becomes the scenario's error or failure, with its reason.
    static func runOne(_ scenario: Scenario, options: ScenarioOptions, worker: inout WorkerProcess?) -> ScenarioResult {
        let started = Clock.monotonic()
        var notes: [String] = []
        func result(_ outcome: ScenarioResult.Outcome, stdout: String = "", stderr: String = "") -> ScenarioResult {
            let capped: ScenarioResult.Outcome
            switch outcome {
            case .failed(let message): capped = .failed(ReportText.capMessage(message))
            case .error(let message): capped = .error(ReportText.capMessage(message))
            default: capped = outcome
            }
            var result = ScenarioResult(scenario: scenario, outcome: capped, duration: Clock.monotonic() - started,
                                        stdout: stdout, stderr: stderr)
            result.notes = notes
            return result
        }
        switch scenario.problem {
        case .skip(let reason)?: return result(.skipped(reason))
        case .fail(let reason)?: return result(.error(reason))
        case nil: break
        }
        guard let eventsPath = scenario.eventsPath else { return result(.error("no events file")) }
        // The expected file is compared line by line as the output arrives. A bad expected file
        // is the error whatever the script does, so unless every line matched the output byte
        // for byte (then every line is one the output writer made, which is valid) the whole
        // file is checked before any other outcome is reported: checking it up front for every
        // scenario would cost a passing one more than running it.
        let sink: OutputSink
        var expected: ExpectedFile?
        if options.update {
            sink = OutputSink(comparison: nil)
        } else {
            guard scenario.hasExpected else {
                return result(.error("missing expected file \(ReportText.visible(fileName(scenario.expectedPath))) (create it with --update)"))
            }
            do {
                let file = try ExpectedFile(path: scenario.expectedPath)
                expected = file
                sink = OutputSink(comparison: StreamedComparison(expected: file.lines()))
            } catch {
                return result(.error("\(error)"))
            }
        }
        /// The expected file's first problem, if it has one.
        func expectedFileProblem() -> String? {
            guard let expected else { return nil }
            var lines = expected.lines()
            do {
                try OutputComparison.check(&lines, file: scenario.expectedPath)
                return nil
            } catch {
                return "\(error)"
            }
        }

        var captured = CappedText()
        var job = ScenarioJob(script: scenario.scriptPath, events: eventsPath, options: options)
        // In the scenario's own folder (where its expected file is): `test DIR` and
        // `cd DIR && test .` run it alike.
        job.run(in: ScenarioPaths.folder(of: scenario.expectedPath))
        if case .failure(let error) = execute(job, options: options, worker: &worker, captured: &captured, notes: &notes, output: sink.take) {
            if let problem = expectedFileProblem() { return result(.error(problem), stderr: captured.text) }
            return result(.error(error.message), stderr: captured.text)
        }
        func ran(_ outcome: ScenarioResult.Outcome) -> ScenarioResult {
            result(outcome, stdout: sink.stdout.text, stderr: captured.text)
        }
        if options.update {
            if scenario.hasExpected, (try? readRegularFile(scenario.expectedPath)) == sink.written {
                return ran(.passed)
            }
            // An expected file is a regular file: never a FIFO to wait on (a batch must not hang).
            var info = stat()
            if lstat(scenario.expectedPath, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                return ran(.error("cannot write \(scenario.expectedPath): not a regular file"))
            }
            do {
                try OutputFile.write(sink.written, to: scenario.expectedPath)
            } catch {
                return ran(.error(ReportText.visible("\(error)")))
            }
            return ran(.updated)
        }
        if sink.comparison!.matchesByteForByte() { return ran(.passed) }
        if let problem = expectedFileProblem() { return ran(.error(problem)) }
        do {
            if let difference = try sink.comparison!.finish(expectedFile: scenario.expectedPath) {
                return ran(.failed(difference))
            }
        } catch {
            return ran(.error("\(error)"))
        }
        return ran(.passed)
    }

    /// Where a scenario's output goes as it arrives: compared with the expected file (or kept
    /// whole for `--update`), and its start kept for the JUnit report.
    final class OutputSink {
        var comparison: StreamedComparison?
        private(set) var written: [UInt8] = []
        private(set) var stdout = CappedText()

        init(comparison: StreamedComparison?) {
            self.comparison = comparison
        }

        func take(_ bytes: UnsafeRawBufferPointer) {
            stdout.append(bytes)
            if comparison != nil {
                comparison!.consume(bytes)
            } else {
                written += bytes
            }
        }
    }

    struct ExecutionError: Error {
        let message: String
    }

    /// Runs `job` in a worker process, its output handed to `output` as it arrives.
    static func execute(_ job: ScenarioJob, options: ScenarioOptions, worker: inout WorkerProcess?,
                        captured: inout CappedText, notes: inout [String],
                        output: (UnsafeRawBufferPointer) -> Void) -> Result<Void, ExecutionError> {
        if worker == nil {
            do {
                worker = try WorkerProcess(executable: options.workerExecutable)
            } catch {
                return .failure(ExecutionError(message: "\(error)"))
            }
        }
        let deadline = options.timeout > 0 ? Clock.monotonic() + options.timeout + blockedGrace : .infinity
        switch worker!.execute(WorkerMessage.encode(job.fields), deadline: deadline, captured: &captured, output: output) {
        case .replied(let fields):
            let reply = ScenarioReply(fields: fields)
            notes = reply?.notes ?? []
            switch reply {
            case .finished?: return .success(())
            case let .failed(kind, message, _)?: return .failure(ExecutionError(message: describe(kind: kind, message: message, options: options)))
            case nil:
                worker = nil
                return .failure(ExecutionError(message: "the scenario's process sent a reply that is not one; it was killed"))
            }
        case .garbled:
            worker = nil
            return .failure(ExecutionError(message: "the scenario's process sent a reply that is not one; it was killed"))
        case .timedOut:
            worker = nil
            return .failure(ExecutionError(message: "timeout: still running \(formatSeconds(blockedGrace)) s after the time limit of \(formatSeconds(options.timeout)) s (blocked outside Lua, e.g. in os.execute or io.read); killed with its child processes"))
        case .died(let status):
            worker = nil
            return .failure(ExecutionError(message: describeDeath(status)))
        }
    }

    /// Why a worker ended, from its wait status.
    static func describeDeath(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 {
            let code = (status >> 8) & 0xFF
            return "the scenario ended its process (exit status \(code), as os.exit does) before it finished"
        }
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGABRT: "SIGABRT",
                                      SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
                                      SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS", SIGALRM: "SIGALRM", SIGHUP: "SIGHUP", SIGINT: "SIGINT",
                                      SIGQUIT: "SIGQUIT", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2"]
        let name = names[signal].map { " (\($0))" } ?? ""
        let hint = signal == SIGKILL ? ", from outside or for lack of memory" : ""
        return "crash: the scenario's process was killed by signal \(signal)\(name)\(hint)"
    }

    static func describe(kind: String, message: String, options: ScenarioOptions) -> String {
        let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        switch kind {
        case "timeout":
            return "timeout: stopped after the time limit of \(formatSeconds(options.timeout)) s (\(firstLine))"
        case "output":
            return "too much output: \(firstLine)"
        case "memory":
            return "out of memory: the script exceeded its memory limit of \(formatBytes(options.memoryLimit)) (\(firstLine))"
        case "syntax", "runtime":
            return "script error: \(message)"
        case "input":
            return "bad events file: \(message)"
        default:
            return message
        }
    }

    /// A file's bytes; anything but a regular file (a FIFO would block the batch) is an error.
    static func readRegularFile(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ExpectedFileError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & UInt32(S_IFMT) == UInt32(S_IFREG) else { throw ExpectedFileError(description: "cannot read \(path): not a regular file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ExpectedFileError(description: "cannot read \(path)") }
        return [UInt8](data)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    static func formatBytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    static func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }
}

/// The work index and the results, shared by the pool's threads.
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

    func finish(_ index: Int, _ result: ScenarioResult, progress: (@Sendable (Int, ScenarioResult) -> Void)?) {
        lock.withLock {
            results[index] = result
            done += 1
            progress?(done, result)
        }
    }
}
