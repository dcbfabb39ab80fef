/// One scenario: `NAME.lua` beside its events and `NAME.expected.jsonl` (API.md, Scenarios).
public struct Scenario: Equatable, Sendable {
    /// The script's path relative to the folder it was found under, without `.lua`
    /// (`drag/threshold`); what `--filter` matches and reports show.
    public var name: String
    public var scriptPath: String
    /// The events file, when there is exactly one.
    public var eventsPath: String?
    /// Where the expected output is (or would be written by `--update`).
    public var expectedPath: String
    public var hasExpected: Bool
    /// Set when the files found cannot make a runnable scenario.
    public var problem: Problem?

    public enum Problem: Equatable, Sendable {
        /// Not a scenario (no events and no expected file: a module, say); reported as skipped.
        case skip(String)
        /// A scenario with something missing or ambiguous: reported as failed.
        case fail(String)
    }

    public init(name: String, scriptPath: String, eventsPath: String?, expectedPath: String,
                hasExpected: Bool, problem: Problem? = nil) {
        self.name = name
        self.scriptPath = scriptPath
        self.eventsPath = eventsPath
        self.expectedPath = expectedPath
        self.hasExpected = hasExpected
        self.problem = problem
    }
}

/// The outcome of one scenario.
public struct ScenarioResult: Sendable {
    public enum Outcome: Equatable, Sendable {
        case passed
        /// `--update` wrote a new expected file (counted as passed).
        case updated
        /// The output differs from the expected lines (a JUnit `<failure>`).
        case failed(String)
        /// Nothing to compare: a script error, timeout, out of memory, a process that crashed or
        /// exited, a missing or unreadable file (a JUnit `<error>`; counted as failed).
        case error(String)
        case skipped(String)
    }

    public var scenario: Scenario
    public var outcome: Outcome
    /// Wall time in seconds.
    public var duration: Double
    /// The JSON Lines the scenario emitted (capped), as `run` would print them on stdout.
    public var stdout: String
    /// What the scenario wrote to stderr and stdout (`print`, `log`, io.write, child processes;
    /// capped), as `run` would print on stderr.
    public var stderr: String
    /// What `test` says of the scenario on stderr, whatever its outcome (once each): that the
    /// focused application was unknown where a recognizer's `apps =` was decided.
    public var notes: [String] = []

    public init(scenario: Scenario, outcome: Outcome, duration: Double, stdout: String = "", stderr: String = "") {
        self.scenario = scenario
        self.outcome = outcome
        self.duration = duration
        self.stdout = stdout
        self.stderr = stderr
    }

    public var passed: Bool { outcome == .passed || outcome == .updated }
    /// The reason of a mismatch or an error.
    public var failureMessage: String? {
        switch outcome {
        case .failed(let message), .error(let message): return message
        default: return nil
        }
    }
    public var skipReason: String? {
        if case .skipped(let reason) = outcome { return reason }
        return nil
    }
}
