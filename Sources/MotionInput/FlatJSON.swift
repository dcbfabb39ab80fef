/// A parser for one flat JSON object per line (`{"t":0.0,"id":1,"phase":"down",...}`):
/// numbers, strings, booleans and null as values. Anything else is an error with a reason.
struct FlatJSON {
    enum Value: Equatable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case null
        case nested
    }

    struct Failure: Error {
        let message: String
    }

    /// Calls `field` for each key/value pair of the object in `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, field: (String, Value) throws -> Void) throws {
        var i = 0
        let n = bytes.count
        func skipSpace() { while i < n, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13 { i += 1 } }
        func expect(_ c: UInt8, _ what: String) throws {
            skipSpace()
            guard i < n, bytes[i] == c else { throw Failure(message: "malformed JSON: expected \(what) at column \(i + 1)") }
            i += 1
        }
        func string() throws -> String {
            try expect(34, "'\"'")
            var out: [UInt8] = []
            while i < n {
                let c = bytes[i]
                i += 1
                if c == 34 { return String(decoding: out, as: UTF8.self) }
                if c == 92 {
                    guard i < n else { break }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case 110: out.append(10)
                    case 116: out.append(9)
                    case 114: out.append(13)
                    case 98: out.append(8)
                    case 102: out.append(12)
                    case 117:
                        guard i + 4 <= n, let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<i + 4]), as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(code) else {
                            throw Failure(message: "malformed JSON: bad \\u escape at column \(i)")
                        }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                        i += 4
                    default: out.append(e)
                    }
                } else {
                    out.append(c)
                }
            }
            throw Failure(message: "malformed JSON: unterminated string")
        }
        func value() throws -> Value {
            skipSpace()
            guard i < n else { throw Failure(message: "malformed JSON: missing value") }
            let c = bytes[i]
            if c == 34 { return .string(try string()) }
            if c == 123 || c == 91 { return .nested }
            for (word, v) in [("true", Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
                let w = Array(word.utf8)
                if i + w.count <= n, Array(bytes[i..<i + w.count]) == w {
                    i += w.count
                    return v
                }
            }
            let begin = i
            while i < n, let ch = Optional(bytes[i]), (ch >= 48 && ch <= 57) || ch == 45 || ch == 43 || ch == 46 || ch == 101 || ch == 69 { i += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<i]), as: UTF8.self)
            guard !text.isEmpty, let number = Double(text), number.isFinite else {
                throw Failure(message: "malformed JSON: unexpected character at column \(begin + 1)")
            }
            return .number(number)
        }
        try expect(123, "'{'")
        skipSpace()
        if i < n, bytes[i] == 125 {
            i += 1
        } else {
            while true {
                let key = try string()
                try expect(58, "':'")
                let v = try value()
                if v == .nested { throw Failure(message: "unexpected nested value for \"\(key)\"") }
                try field(key, v)
                skipSpace()
                guard i < n else { throw Failure(message: "malformed JSON: unterminated object") }
                if bytes[i] == 44 { i += 1; continue }
                if bytes[i] == 125 { i += 1; break }
                throw Failure(message: "malformed JSON: expected ',' or '}' at column \(i + 1)")
            }
        }
        skipSpace()
        if i != n { throw Failure(message: "malformed JSON: trailing characters at column \(i + 1)") }
    }
}
