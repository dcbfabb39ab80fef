/// A parsed JSON value: expected output lines compared structurally, the control protocol's
/// requests and answers, the desktops' replies (sway, Hyprland). Parsed here rather than with
/// JSONSerialization, whose NSNumber cannot tell `true` from `1` on every platform.
public indirect enum JSONValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one complete JSON text (surrounding white space allowed).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONSyntaxError) in try parse(buffer: bytes) } }.get()
    }

    /// Parses one complete JSON text given as UTF-8 bytes (a socket's reply).
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try parse(buffer: buffer) }
    }

    /// The tree of the one value in `buffer`, read by the one grammar (`JSONScanner`), built
    /// without recursion: the containers open at a time (at most `JSONScanner.maxDepth`) are a
    /// stack here. A key given twice in one object is an error: the last would win silently
    /// (an expected file saying two things, a request naming two commands).
    public static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var scanner = JSONScanner(buffer)
        var open: [Container] = []
        var root = JSONValue.null
        var decoded: [UInt8] = []
        while true {
            let value: JSONValue
            switch try scanner.next() {
            case .objectStart:
                open.append(Container(isObject: true))
                continue
            case .arrayStart:
                open.append(Container(isObject: false))
                continue
            case .key:
                let key = string(&scanner, &decoded)
                guard open[open.count - 1].members[key] == nil else {
                    throw JSONSyntaxError(offset: scanner.start, reason: "duplicate key \"\(key.prefix(40))\"")
                }
                open[open.count - 1].key = key
                continue
            case .objectEnd: value = .object(open.removeLast().members)
            case .arrayEnd: value = .array(open.removeLast().items)
            case .string: value = .string(string(&scanner, &decoded))
            case .number: value = .number(scanner.number)
            case .literalTrue: value = .bool(true)
            case .literalFalse: value = .bool(false)
            case .null: value = .null
            case .end: return root
            }
            if open.isEmpty {
                root = value
            } else if open[open.count - 1].isObject {
                open[open.count - 1].members[open[open.count - 1].key] = value
            } else {
                open[open.count - 1].items.append(value)
            }
        }
    }

    /// The string or key the scanner just read (`decoded`: room for one with escapes).
    private static func string(_ scanner: inout JSONScanner, _ decoded: inout [UInt8]) -> String {
        guard scanner.escaped else { return String(decoding: scanner.text, as: UTF8.self) }
        decoded.removeAll(keepingCapacity: true)
        scanner.decode(into: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// An array or object being read: its items, or its members and the key of the next one.
    private struct Container {
        let isObject: Bool
        var items: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        var key = ""
    }

    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { "\"\($0)\":\(o[$0]!)" }.joined(separator: ",") + "}"
        }
    }
}

extension JSONValue {
    /// The value's JSON text, as the writer writes it (`JSONWriter.json`).
    public var jsonText: String { JSONText.text { $0.json(self) } }

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

    /// A number's integer part (a process id), nil for other values and numbers no Int holds.
    public var integerValue: Int? {
        guard case .number(let n) = self, n.isFinite, n.magnitude < 0x1p63 else { return nil }
        return Int(n)
    }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

extension JSONWriter {
    /// A parsed value's JSON: numbers and strings as the output lines print them, an object's
    /// keys in a stable order, "id" and "ok" first (a control answer's reader sees them at a
    /// glance), the rest sorted.
    public mutating func json(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let a):
            byte(91)
            for (i, item) in a.enumerated() {
                if i > 0 { byte(44) }
                json(item)
            }
            byte(93)
        case .object(let o):
            let keys = o.keys.sorted { a, b in
                let rank = { (k: String) in k == "id" ? 0 : k == "ok" ? 1 : 2 }
                return (rank(a), a) < (rank(b), b)
            }
            byte(123)
            for (i, key) in keys.enumerated() {
                if i > 0 { byte(44) }
                string(key)
                byte(58)
                json(o[key]!)
            }
            byte(125)
        }
    }
}
