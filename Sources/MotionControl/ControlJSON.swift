import MotionScenarios
import MotionLua

/// JSON text for the control protocol: requests are parsed with the host's `JSONValue`, answers
/// are written from it (strings and numbers escaped and printed as the output lines print them).
extension JSONValue {
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONText.number(n)
        case .string(let s): return JSONText.string(s)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o):
            // Keys in a stable order: "id" and "ok" first, so a reader sees them at a glance.
            let keys = o.keys.sorted { a, b in
                let rank = { (k: String) in k == "id" ? 0 : k == "ok" ? 1 : 2 }
                return (rank(a), a) < (rank(b), b)
            }
            return "{" + keys.map { JSONText.string($0) + ":" + o[$0]!.jsonText }.joined(separator: ",") + "}"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}
