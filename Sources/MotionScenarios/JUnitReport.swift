#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// JUnit XML for CI dashboards: one testsuite with the counts, its start time and wall time, a
/// testcase per scenario. A mismatch is a `<failure>`; anything that kept the scenario from
/// giving output to compare (script error, timeout, out of memory, a crashed or exited process,
/// a missing or unreadable file) is an `<error>`. Each scenario that ran has its JSON Lines
/// output as `<system-out>` and what it wrote to stderr (`print`, `log`, io.write, its child
/// processes) as `<system-err>`, each capped (see `ReportText`).
public enum JUnitReport {
    public static func xml(_ report: ScenarioReport, suiteName: String = "motionscript") -> String {
        xml(report.results, wallTime: report.wallTime, timestamp: report.started, suiteName: suiteName)
    }

    /// - Parameters:
    ///   - wallTime: seconds the batch took (cases run in parallel: not their sum).
    ///   - timestamp: when the batch started.
    public static func xml(_ results: [ScenarioResult], wallTime: Double, timestamp: Date,
                           suiteName: String = "motionscript") -> String {
        let report = ScenarioReport(results)
        let counts = "tests=\"\(results.count)\" failures=\"\(report.mismatched)\" errors=\"\(report.errors)\" skipped=\"\(report.skipped)\" time=\"\(seconds(wallTime))\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites \(counts)>\n"
        xml += "  <testsuite name=\"\(escape(suiteName))\" \(counts) timestamp=\"\(iso8601(timestamp))\">\n"
        for result in results {
            let open = "    <testcase name=\"\(escape(ReportText.visible(result.scenario.name)))\" classname=\"scenarios\" file=\"\(escape(ReportText.visible(result.scenario.scriptPath)))\" time=\"\(seconds(result.duration))\""
            var body = ""
            switch result.outcome {
            case .passed, .updated:
                break
            case .skipped(let reason):
                body += "      <skipped message=\"\(escape(reason))\"/>\n"
            case .failed(let message):
                body += "      <failure message=\"\(escape(firstLine(message)))\" type=\"mismatch\">\(escape(message, attribute: false))</failure>\n"
            case .error(let message):
                body += "      <error message=\"\(escape(firstLine(message)))\" type=\"\(errorType(message))\">\(escape(message, attribute: false))</error>\n"
            }
            if !result.stdout.isEmpty { body += "      <system-out>\(escape(result.stdout, attribute: false))</system-out>\n" }
            if !result.stderr.isEmpty { body += "      <system-err>\(escape(result.stderr, attribute: false))</system-err>\n" }
            xml += body.isEmpty ? open + "/>\n" : open + ">\n" + body + "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func firstLine(_ message: String) -> String {
        message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? message
    }

    /// The kind of error, from the start of its message ("timeout: ..." is a timeout).
    static func errorType(_ message: String) -> String {
        let kinds = ["script error", "timeout", "out of memory", "too much output", "bad events file", "crash"]
        return kinds.first { message.hasPrefix($0 + ":") } ?? "error"
    }

    static func seconds(_ value: Double) -> String {
        let millis = Int((max(0, value) * 1000).rounded())
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
    }

    /// `2026-11-22T20:41:52Z`: UTC, to the second, as JUnit readers expect.
    static func iso8601(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Escapes text for attributes and content; characters XML 1.0 cannot hold are shown as
    /// `\xNN` (`ReportText.visible`), as in the text report.
    static func escape(_ text: String, attribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += attribute ? "&quot;" : "\""
            case "\n": if attribute { out += "&#10;" } else { out += "\n" }
            case "\t": if attribute { out += "&#9;" } else { out += "\t" }
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 { out += ReportText.visible(String(scalar)); continue }
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
