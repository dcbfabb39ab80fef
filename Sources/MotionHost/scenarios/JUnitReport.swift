/// JUnit XML for CI dashboards: one testsuite with the counts, a testcase per scenario, the
/// failure's first line as its message and the whole reason as its text.
public enum JUnitReport {
    public static func xml(_ results: [ScenarioResult], suiteName: String = "motionscript") -> String {
        let report = ScenarioReport(results)
        let time = results.reduce(0) { $0 + $1.duration }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(report.failed)\" errors=\"0\" skipped=\"\(report.skipped)\" time=\"\(seconds(time))\">\n"
        xml += "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(results.count)\" failures=\"\(report.failed)\" errors=\"0\" skipped=\"\(report.skipped)\" time=\"\(seconds(time))\">\n"
        for result in results {
            let open = "    <testcase name=\"\(escape(result.scenario.name))\" classname=\"scenarios\" file=\"\(escape(result.scenario.scriptPath))\" time=\"\(seconds(result.duration))\""
            switch result.outcome {
            case .passed, .updated:
                xml += open + "/>\n"
            case .skipped(let reason):
                xml += open + ">\n      <skipped message=\"\(escape(reason))\"/>\n    </testcase>\n"
            case .failed(let message):
                let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
                xml += open + ">\n      <failure message=\"\(escape(first))\">\(escape(message, attribute: false))</failure>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
    }

    /// Escapes text for attributes and content; drops characters XML 1.0 cannot hold.
    static func escape(_ text: String, attribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": if attribute { out += "&#10;" } else { out += "\n" }
            case "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
