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
        } catch let error as JSONSyntaxError {
            // Counted from the line's start, as a reader of the file counts.
            let place = JSONSyntaxError(offset: error.offset + prefix.count, reason: error.reason)
            return .failure(AppCommentError(message: "malformed motionscript comment: not JSON: \(place)"))
        } catch {
            return .failure(AppCommentError(message: "malformed motionscript comment"))
        }
        guard let change else { return .failure(AppCommentError(message: "malformed motionscript comment: no field \"app\"")) }
        return .success(change)
    }

    /// The app as JSON: the fields it has, id first.
    static func json(_ app: AppInfo?) -> String {
        JSONText.text { writer in
            guard let app else { return writer.raw("null") }
            writer.raw("{\"id\":")
            writer.string(app.id)
            if let c = app.className {
                writer.raw(",\"class\":")
                writer.string(c)
            }
            if let i = app.instance {
                writer.raw(",\"instance\":")
                writer.string(i)
            }
            if let t = app.title {
                writer.raw(",\"title\":")
                writer.string(t)
            }
            if let p = app.pid {
                writer.raw(",\"pid\":")
                writer.integer(Int64(p))
            }
            writer.byte(125)
        }
    }
}

/// A malformed app comment's reason.
struct AppCommentError: Error {
    let message: String
}
