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

    public struct ParseError: Error, CustomStringConvertible {
        public let column: Int
        public let message: String
        public var description: String { "column \(column): \(message)" }
    }

    /// Parses one complete JSON text (surrounding white space allowed).
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one complete JSON text given as UTF-8 bytes (a socket's reply).
    public static func parse(bytes: [UInt8]) throws -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
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

private struct Parser {
    let bytes: [UInt8]
    var at = 0

    func error(_ message: String) -> JSONValue.ParseError { JSONValue.ParseError(column: at + 1, message: message) }

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw error("nested too deeply") }
        guard at < bytes.count else { throw error("unexpected end of line") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[at])))'")
        }
    }

    mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else { throw error("invalid literal") }
        at += w.count
    }

    mutating func number() throws -> Double {
        let start = at
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        func digits() -> Int {
            let from = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - from
        }
        guard digits() > 0 else { throw error("invalid number") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw error("invalid number") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw error("invalid number") }
        }
        guard let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)) else { throw error("invalid number") }
        // Infinity would match any number within the tolerance: a number too large for a
        // double is an error, not a wildcard. (Too small rounds to zero, as decimals round.)
        guard value.isFinite else { throw JSONValue.ParseError(column: start + 1, message: "number out of range (larger than a double can hold)") }
        return value
    }

    mutating func string() throws -> String {
        at += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll()
        }
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                flush()
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte != UInt8(ascii: "\\") {
                run.append(byte)
                at += 1
                continue
            }
            flush()
            at += 1
            guard at < bytes.count else { break }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                // A surrogate stands only in a pair: alone it is no character, and mapping it to
                // U+FFFD would make two different expected strings equal.
                var code = try hex4()
                if (0xDC00..<0xE000).contains(code) { throw error("unpaired surrogate in \\u escape") }
                if (0xD800..<0xDC00).contains(code) {
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    at += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            default: throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16) else {
            throw error("invalid \\u escape")
        }
        at += 4
        return code
    }

    mutating func array(depth: Int) throws -> JSONValue {
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard at < bytes.count else { throw error("unterminated array") }
            if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            guard bytes[at] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            at += 1
        }
    }

    mutating func object(depth: Int) throws -> JSONValue {
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = at
            let key = try string()
            // The last of two equal keys would win silently: an expected file saying two things.
            guard members[key] == nil else { throw JSONValue.ParseError(column: keyStart + 1, message: "duplicate key \"\(key.prefix(40))\"") }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':'") }
            at += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            guard at < bytes.count else { throw error("unterminated object") }
            if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            guard bytes[at] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            at += 1
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
