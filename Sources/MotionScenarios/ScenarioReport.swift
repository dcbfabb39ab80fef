import Foundation

/// What `motionscript test` prints: a line per scenario (failures with their reason, indented
/// details), then the summary `N passed, N failed` (`, N skipped` when any were), always the
/// last line of stdout so scripts can read it.
public struct ScenarioReport {
    public let results: [ScenarioResult]
    /// When the batch started, and the seconds it took (scenarios run in parallel).
    public let started: Date
    public let wallTime: Double

    public init(_ results: [ScenarioResult], started: Date = Date(), wallTime: Double = 0) {
        self.results = results
        self.started = started
        self.wallTime = wallTime
    }

    public var passed: Int { results.filter(\.passed).count }
    /// Mismatches and errors: what the summary line calls failed.
    public var failed: Int { results.filter { $0.failureMessage != nil }.count }
    public var mismatched: Int { results.filter { if case .failed = $0.outcome { return true }; return false }.count }
    public var errors: Int { results.filter { if case .error = $0.outcome { return true }; return false }.count }
    public var skipped: Int { results.filter { $0.skipReason != nil }.count }

    /// 0 when nothing failed, 1 otherwise.
    public var exitCode: Int32 { failed == 0 ? 0 : 1 }

    public var summaryLine: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    /// What `test` says on stderr of the scenarios it concerns, one line each whatever their
    /// outcome: the focused application was unknown where a recognizer's `apps =` was decided
    /// (an older scenario whose `apps = "firefox"` gesture no longer begins fails with "output
    /// ended early"; this says why).
    public var noteLines: [String] {
        results.flatMap { result in
            result.notes.map { "warning: \(ReportText.visible(result.scenario.name)): \(ReportText.visible($0)) (a scenario gives it with app lines in its events, an '-- app: NAME' line in its script, or test --app)" }
        }
    }

    /// Every line, the summary last. Names, paths and messages come from file names and
    /// scripts: their control characters are shown escaped (`ReportText.visible`), so each
    /// report line is one the report wrote.
    public var lines: [String] {
        var lines: [String] = []
        for result in results {
            let name = ReportText.visible(result.scenario.name)
            switch result.outcome {
            case .passed: lines.append("ok      \(name)")
            case .updated: lines.append("updated \(name) (\(ReportText.visible(result.scenario.expectedPath)))")
            case .skipped(let reason): lines.append("skip    \(name): \(ReportText.visible(reason))")
            case .failed(let message), .error(let message):
                // Split on the scalar: a CR LF is one Character, which a split on "\n" misses.
                let parts = message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { ReportText.visible(String(String.UnicodeScalarView($0)), keepingTabs: true) }
                lines.append("FAIL    \(name): \(parts[0])")
                lines += parts.dropFirst().map { "        " + $0 }
            }
        }
        lines.append(summaryLine)
        return lines
    }
}
