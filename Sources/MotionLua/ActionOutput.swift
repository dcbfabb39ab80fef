import MotionJSON
import MotionStreams

/// Action lines: what a script made the desktop do, one output line per action, so a
/// scenario's expected file asserts a gesture configuration's effects:
/// `{"t":1.2,"action":"keys","keys":"ctrl+alt+Right"}`, `{"t":…,"action":"exec","argv":[…]}`,
/// `{"t":…,"action":"keyDown","key":"alt"}`, `{"t":…,"action":"mouse","move":{"x":…,"y":…}}`.
extension JSONWriter {
    public mutating func actionLine(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        raw("{\"t\":")
        number(t)
        raw(",\"action\":")
        string(action)
        for field in fields {
            raw(",")
            string(field.key)
            raw(":")
            value(field.value)
        }
        raw("}\n")
    }
}

extension JSONWriter {
    /// `{"t":…,"app":{…}}`: the focused application changed (see `AppFunctions.value(of:)`).
    public mutating func appLine(t: Double, app: MotionValue) {
        raw("{\"t\":")
        number(t)
        raw(",\"app\":")
        value(app)
        raw("}\n")
    }
}

extension MotionOutput {
    /// For outputs that only look at value lines (test doubles): the change as a value line
    /// named "app". The host's outputs write real app lines.
    public func emit(t: Double, app: MotionValue) {
        emit(t: t, name: "app", value: app)
    }

    /// For outputs that only look at value lines (test doubles): the action as a value line
    /// named "action". The host's outputs write real action lines.
    public func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        emit(t: t, name: "action", value: .object([("action", .string(action))] + fields))
    }
}
