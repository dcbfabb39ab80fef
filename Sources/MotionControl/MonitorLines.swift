import MotionGestures
import MotionJSON

/// What `ctl monitor` prints for each line of its subscription: an output line byte for byte as
/// the daemon wrote it (`{"id":ID,"line":LINE}` → LINE), a recognizer's change as one readable
/// line (or its JSON object with `json`), nothing for the rest.
public struct MonitorLines {
    /// How an output line starts: known by that, since a recognizer's line has a `"line"` of
    /// its own further in (the script line that made the recognizer).
    private let outputStart: String
    /// Recognizer changes as their JSON objects rather than readable lines.
    public let json: Bool

    /// The lines of the subscription the daemon answered `id` to.
    public init(id: JSONValue, json: Bool) {
        outputStart = "{\"id\":\(id.jsonText),\"line\":"
        self.json = json
    }

    /// The text to print for `raw`, nil for a line that prints nothing.
    public func text(for raw: String) -> String? {
        if raw.hasPrefix(outputStart), raw.hasSuffix("}") {
            return String(raw.dropFirst(outputStart.count).dropLast())
        }
        guard let state = (try? JSONValue.parse(raw))?["recognizerState"] else { return nil }
        return json ? state.jsonText : RecognizerReport(json: state)?.line ?? state.jsonText
    }
}
