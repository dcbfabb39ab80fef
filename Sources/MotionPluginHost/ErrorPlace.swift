import MotionJSON
import MotionLua

extension ScriptError {
    /// The error with the input time and the frame's place in its file added to its first
    /// part (before the traceback): `… at t=9.99 (long.events.jsonl:1000)`, so that a callback
    /// that fails deep into a long recording says where, without bisecting the file.
    @usableFromInline
    package func placed(at time: Double, _ place: String?) -> ScriptError {
        let suffix = " at t=\(JSONText.number(time))" + (place.map { " (\($0))" } ?? "")
        if let traceback = message.range(of: "\nstack traceback:") {
            return ScriptError(kind, message[..<traceback.lowerBound] + suffix + message[traceback.lowerBound...])
        }
        return ScriptError(kind, message + suffix)
    }
}
