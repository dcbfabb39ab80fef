/// A parser for one JSON object per line (`{"t":0.0,"id":1,"phase":"down",...}`): numbers,
/// strings, booleans and null as values; nested objects and arrays are checked for balance and
/// handed out as `.nested` with their bytes, unparsed (the reader ignores extra fields). Anything else
/// is an error with a reason.
/// It reads the line's bytes in place: keys and strings are handed out as bytes (valid during
/// the callback) and plain decimals are converted exactly without strtod, so a line costs no heap
/// allocation and no String.
public struct FlatJSON {
    /// Bytes of a key or string value (escapes already decoded).
    public struct Text: Equatable {
        public let bytes: UnsafeBufferPointer<UInt8>

        @inlinable public init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        @inlinable public func equals(_ text: StaticString) -> Bool {
            guard bytes.count == text.utf8CodeUnitCount else { return false }
            for k in 0..<bytes.count where bytes[k] != text.utf8Start[k] { return false }
            return true
        }

        public var string: String { String(decoding: bytes, as: UTF8.self) }

        @inlinable public static func == (a: Text, b: Text) -> Bool { a.bytes.elementsEqual(b.bytes) }
    }

    public enum Value: Equatable {
        case number(Double)
        case string(Text)
        case bool(Bool)
        case null
        /// A nested object or array: its bytes, brackets included, for a caller that reads it.
        case nested(Text)
    }

    public struct Failure: Error {
        public let message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// Calls `field` for each key/value pair of the object in `bytes`.
    @inlinable public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, field: (Text, Value) throws -> Void) throws {
        var parser = FlatJSON(bytes: bytes)
        try parser.object(field)
    }

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var i = 0
    /// Decoded strings that had escapes (rare), kept alive until the parse ends.
    @usableFromInline var decoded: [[UInt8]] = []

    @inlinable init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inlinable mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13 { i += 1 }
    }

    @inlinable mutating func expect(_ c: UInt8, _ what: String) throws {
        skipSpace()
        guard i < bytes.count, bytes[i] == c else {
            throw Failure(message: "malformed JSON: expected \(what) at column \(i + 1)")
        }
        i += 1
    }

    @inlinable mutating func object(_ field: (Text, Value) throws -> Void) throws {
        try expect(123, "'{'")
        skipSpace()
        if i < bytes.count, bytes[i] == 125 {
            i += 1
        } else {
            while true {
                let key = try string()
                try expect(58, "':'")
                let v = try value()
                try field(key, v)
                skipSpace()
                guard i < bytes.count else { throw Failure(message: "malformed JSON: unterminated object") }
                if bytes[i] == 44 { i += 1; continue }
                if bytes[i] == 125 { i += 1; break }
                throw Failure(message: "malformed JSON: expected ',' or '}' at column \(i + 1)")
            }
        }
        skipSpace()
        if i != bytes.count { throw Failure(message: "malformed JSON: trailing characters at column \(i + 1)") }
    }

    @inlinable mutating func string() throws -> Text {
        try expect(34, "'\"'")
        let begin = i
        // Fast path: no escapes, the text is the bytes in place.
        while i < bytes.count, bytes[i] != 34, bytes[i] != 92 { i += 1 }
        guard i < bytes.count else { throw Failure(message: "malformed JSON: unterminated string") }
        if bytes[i] == 34 {
            defer { i += 1 }
            return Text(bytes: UnsafeBufferPointer(rebasing: bytes[begin..<i]))
        }
        var out = Array(bytes[begin..<i])
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if c == 34 {
                decoded.append(out)
                return decoded[decoded.count - 1].withUnsafeBufferPointer { Text(bytes: $0) }
            }
            guard c == 92 else { out.append(c); continue }
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case 110: out.append(10)
            case 116: out.append(9)
            case 114: out.append(13)
            case 98: out.append(8)
            case 102: out.append(12)
            case 117:
                guard var code = hex4(at: i) else {
                    throw Failure(message: "malformed JSON: bad \\u escape at column \(i)")
                }
                i += 4
                // UTF-16 surrogate pairs spell characters beyond U+FFFF; a lone surrogate is not a
                // character and reads as U+FFFD, as JSON decoders commonly do.
                if code >= 0xD800, code < 0xDC00, i + 6 <= bytes.count, bytes[i] == 92, bytes[i + 1] == 117,
                   let low = hex4(at: i + 2), low >= 0xDC00, low < 0xE000 {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: out.append(e)
            }
        }
        throw Failure(message: "malformed JSON: unterminated string")
    }

    @inlinable func hex4(at k: Int) -> UInt32? {
        guard k + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for c in bytes[k..<k + 4] {
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Skips a nested object or array, checking that brackets balance outside strings (without
    /// recursion, so depth costs nothing).
    @inlinable mutating func skipNested() throws {
        var open: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case 123, 91:
                open.append(c)
                i += 1
            case 125, 93:
                guard let last = open.popLast(), last == c - 2 else {
                    throw Failure(message: "malformed JSON: unbalanced '\(Character(Unicode.Scalar(c)))' at column \(i + 1)")
                }
                i += 1
                if open.isEmpty { return }
            case 34:
                _ = try string()
            default:
                i += 1
            }
        }
        throw Failure(message: "malformed JSON: unterminated nested value")
    }

    @inlinable mutating func value() throws -> Value {
        skipSpace()
        guard i < bytes.count else { throw Failure(message: "malformed JSON: missing value") }
        switch bytes[i] {
        case 34: return .string(try string())
        case 123, 91:
            let start = i
            try skipNested()
            return .nested(Text(bytes: UnsafeBufferPointer(rebasing: bytes[start..<i])))
        case 116: if word("true") { return .bool(true) }
        case 102: if word("false") { return .bool(false) }
        case 110: if word("null") { return .null }
        default: break
        }
        return .number(try number())
    }

    /// Consumes `text` if the bytes at the cursor spell it.
    @inlinable mutating func word(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        for k in 0..<n where bytes[i + k] != text.utf8Start[k] { return false }
        i += n
        return true
    }

    @usableFromInline static let powersOfTen: [Double] = (0...22).map { pow10($0) }
    @inlinable static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { acc, _ in acc * 10 } }

    @inlinable mutating func number() throws -> Double {
        let begin = i
        while i < bytes.count {
            let c = bytes[i]
            guard (c >= 48 && c <= 57) || c == 45 || c == 43 || c == 46 || c == 101 || c == 69 else { break }
            i += 1
        }
        if let exact = Self.plainDecimal(UnsafeBufferPointer(rebasing: bytes[begin..<i])) { return exact }
        // Exponents and long mantissas: the standard library's correctly rounded conversion.
        let text = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<i]), as: UTF8.self)
        guard !text.isEmpty, let number = Double(text), number.isFinite else {
            throw Failure(message: "malformed JSON: unexpected character at column \(begin + 1)")
        }
        return number
    }

    /// `-?digits[.digits]` with at most 15 significant digits: the mantissa and 10^k are exact
    /// doubles, so one division gives the correctly rounded value (Clinger's fast path). Nil
    /// for anything else (exponents, more digits, malformed), which takes the slow path.
    @inlinable static func plainDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var k = 0
        var negative = false
        if k < text.count, text[k] == 45 { negative = true; k += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var sawDot = false
        var sawDigit = false
        while k < text.count {
            let c = text[k]
            if c >= 48 && c <= 57 {
                sawDigit = true
                if mantissa != 0 || c != 48 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(c - 48)
                if sawDot { fraction += 1 }
            } else if c == 46, !sawDot {
                sawDot = true
            } else {
                return nil
            }
            k += 1
        }
        guard sawDigit, digits <= 15, fraction <= 22, text.last != 46 else { return nil }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }
}
