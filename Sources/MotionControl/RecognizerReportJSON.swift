import MotionGestures
import MotionScenarios

/// A recognizer's state change as the control protocol carries it: the object of a
/// `{"id":…,"recognizerState":{…}}` line (docs/control.md), and back for `ctl monitor`.
extension RecognizerReport {
    /// The report's fields; absent ones are left out.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["t": .number(t), "recognizer": .string(recognizer), "kind": .string(kind),
                                      "state": .string(state)]
        if let plugin { o["plugin"] = .string(plugin) }
        if !options.isEmpty { o["options"] = .array(options.map(JSONValue.string)) }
        if let site {
            o["file"] = .string(site.file)
            o["line"] = .number(Double(site.line))
        }
        if let reason { o["reason"] = .string(reason) }
        if let value, value.isFinite { o["value"] = .number(value) }
        if let limit, limit.isFinite { o["limit"] = .number(limit) }
        if let unit { o["unit"] = .string(unit) }
        if let rival { o["rival"] = .string(rival) }
        if let text { o["text"] = .string(text) }
        return .object(o)
    }

    /// A report read back from its fields (nil without the ones every report has).
    public init?(json: JSONValue) {
        guard let t = json["t"]?.numberValue, let recognizer = json["recognizer"]?.stringValue,
              let state = json["state"]?.stringValue else { return nil }
        var site: SourceLocation?
        if let file = json["file"]?.stringValue, let line = json["line"]?.numberValue { site = SourceLocation(file: file, line: Int(line)) }
        self.init(t: t, plugin: json["plugin"]?.stringValue, recognizer: recognizer,
                  kind: json["kind"]?.stringValue ?? String(recognizer.prefix { $0 != "#" }),
                  options: (json["options"]?.arrayValue ?? []).compactMap(\.stringValue), site: site, state: state,
                  reason: json["reason"]?.stringValue, value: json["value"]?.numberValue, limit: json["limit"]?.numberValue,
                  unit: json["unit"]?.stringValue, rival: json["rival"]?.stringValue, text: json["text"]?.stringValue)
    }
}

/// The observer of one plugin's recognizers while someone runs `ctl monitor --recognizers`:
/// each change goes to the control server tagged with the plugin's name.
public final class RecognizerMonitorFeed: RecognizerObserver {
    let plugin: String
    weak var server: ControlServer?

    public init(plugin: String, server: ControlServer?) {
        self.plugin = plugin
        self.server = server
    }

    public func recognizer(_ recognizer: GestureRecognizer, changed change: RecognizerChange) {
        server?.publish(recognizer: RecognizerReport(recognizer, change, plugin: plugin))
    }
}
