import MotionGestures
import MotionJSON

/// How evemu recordings carry focus changes: a comment line between events,
/// `# motionscript: {"app":{"id":"firefox","title":"…"}}` (the `app` field as in JSON Lines app
/// lines; `null`: no window focused), meaning "from the next event on". Other tools skip it as
/// the comment it is; `motionscript record` writes one at each change when a desktop provider
/// is active.
public enum AppComment {
    static let prefix = Array("# motionscript: ".utf8)

    /// The line for `app`.
    public static func line(_ app: AppInfo?) -> String {
        "# motionscript: {\"app\":\(json(app))}\n"
    }

    /// nil when `line` is no app comment; otherwise the change, or why it is malformed.
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result<FocusChange, AppCommentError>? {
        guard line.count > prefix.count, prefix.indices.allSatisfy({ line[$0] == prefix[$0] }) else { return nil }
        let body = UnsafeBufferPointer(rebasing: line[prefix.count...])
        var change: FocusChange?
        do {
            try FlatJSON.parse(body) { key, value in
                if key.equals("app") { change = FocusChange(app: try AppLineField.app(value)) }
            }
        } catch let failure as FlatJSON.Failure {
            return .failure(AppCommentError(message: "malformed motionscript comment: \(failure.message)"))
        } catch {
            return .failure(AppCommentError(message: "malformed motionscript comment"))
        }
        guard let change else { return .failure(AppCommentError(message: "malformed motionscript comment: no field \"app\"")) }
        return .success(change)
    }

    /// The app as JSON: the fields it has, id first.
    static func json(_ app: AppInfo?) -> String {
        guard let app else { return "null" }
        var fields = ["\"id\":" + string(app.id)]
        if let c = app.className { fields.append("\"class\":" + string(c)) }
        if let i = app.instance { fields.append("\"instance\":" + string(i)) }
        if let t = app.title { fields.append("\"title\":" + string(t)) }
        if let p = app.pid { fields.append("\"pid\":\(p)") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// A malformed app comment's reason.
struct AppCommentError: Error {
    let message: String
}
