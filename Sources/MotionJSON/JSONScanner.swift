/// The one JSON grammar of the project, RFC 8259 strictly, read a token at a time in place:
/// the readers are built on it (`FlatJSON` for input lines, `JSONValue` for trees,
/// `JSONLineCheck` for expected output lines), so they accept the same texts and word their
/// errors alike (`JSONSyntaxError`: `byte N: what is wrong`).
///
/// What it accepts (docs/input.md says it for users): one value, with space, tab, CR and LF
/// around tokens; no trailing commas, comments, NaN/Infinity or single quotes; numbers
/// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?` whose value a double holds (`1e400` is
/// an error, `1e-400` reads as 0); strings of valid UTF-8 without raw control characters,
/// with the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` and a surrogate only in a high-low pair;
/// at most `maxDepth` arrays and objects open at once. Duplicate keys are the readers' call.
///
/// It never recurses (the open containers are a bit stack inside the value) and never
/// allocates, so skipping a nested value costs a scan whatever its depth, and a hostile line
/// can neither overflow the stack nor grow the heap.
public struct JSONScanner {
    public enum Token: Equatable {
        case objectStart, objectEnd, arrayStart, arrayEnd
        /// A key of an object, its `:` consumed: `text`, `escaped`, `ascii` describe it.
        case key
        case string, number, literalTrue, literalFalse, null
        /// The end of the text, after the one value.
        case end
    }

    /// Arrays and objects open at once, at most.
    public static let maxDepth = 512

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    @usableFromInline var i = 0
    /// The first byte of the token last returned (for `.end`, the end).
    @usableFromInline var _start = 0
    @inlinable @inline(__always) public var start: Int { _start }
    /// Arrays and objects open now.
    @usableFromInline var _depth = 0
    @inlinable @inline(__always) public var depth: Int { _depth }
    /// Bit d: the container at depth d + 1 is an object, for d below 64; `deeper` holds the
    /// bits of the rest, in words only deep texts touch (so that they stay in memory while
    /// `objects` stays in a register).
    @usableFromInline var objects: UInt64 = 0
    @usableFromInline var deeper: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    /// Whether the innermost open container is an object (the bit of `depth - 1`, kept at hand).
    @usableFromInline var inObject = false
    @usableFromInline var state = State.value

    /// A string or key: where its closing quote is, whether it has escapes (`text` is then not
    /// its value: see `decode`), whether it is all ASCII.
    @usableFromInline var textEnd = 0
    @usableFromInline var _escaped = false
    @inlinable @inline(__always) public var escaped: Bool { _escaped }
    @usableFromInline var _ascii = true
    @inlinable @inline(__always) public var ascii: Bool { _ascii }

    /// A number: where it ends; whether it was converted while scanning (exponents and long
    /// ones, rare), to what.
    @usableFromInline var numberEnd = 0
    @usableFromInline var converted = false
    @usableFromInline var convertedValue = 0.0

    @usableFromInline enum State: UInt8 {
        /// A value is next (the top level, after a key's `:`, after `,` in an array).
        case value
        /// After `[`: a value or `]`.
        case firstValue
        /// After `{`: a key or `}`.
        case firstKey
        /// After a value: `,`, the closing bracket, or (at the top level) the end.
        case afterValue
    }

    @inlinable public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Where the scanner stands: the byte after the token last returned.
    @inlinable @inline(__always) public var offset: Int { i }

    /// The bytes of the string or key last returned, between its quotes (escapes undecoded).
    @inlinable @inline(__always) public var text: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(start + 1)..<textEnd])
    }

    /// The next token; after `.end`, `.end` again.
    @inlinable @inline(__always) public mutating func next() throws(JSONSyntaxError) -> Token {
        var comma = -1
        switch state {
        case .afterValue:
            skipSpace()
            if _depth == 0 {
                _start = i
                guard i == bytes.count else { throw Self.failure(.afterTheValue, at: i, in: bytes) }
                return .end
            }
            guard i < bytes.count else { throw Self.failure(.expectedCommaOrClose(inObject), at: i, in: bytes) }
            let c = bytes[i]
            if c == (inObject ? 125 : 93) { return close() }
            guard c == 44 else { throw Self.failure(.expectedCommaOrClose(inObject), at: i, in: bytes) }
            comma = i
            i += 1
            skipSpace()
            if inObject { return try key(comma: comma) }
        case .value:
            skipSpace()
        case .firstKey:
            skipSpace()
            if i < bytes.count, bytes[i] == 125 { return close() }
            return try key(comma: -1)
        case .firstValue:
            skipSpace()
            if i < bytes.count, bytes[i] == 93 { return close() }
        }
        return try value(comma: comma)
    }

    /// After `.objectStart` or `.arrayStart`: reads (and checks) the rest of that container,
    /// to its closing bracket, which `offset` is then after.
    @inlinable @inline(__always) public mutating func skipContainer() throws(JSONSyntaxError) {
        let outside = _depth - 1
        while _depth > outside { _ = try next() }
    }

    /// Before the first token: whether the value is an object (`{` after any space), else the
    /// error saying what is there instead.
    @inlinable public mutating func expectObject() throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count, bytes[i] == 123 else { throw Self.failure(.expectedObject, at: i, in: bytes) }
    }

    // MARK: - Tokens

    @inlinable @inline(__always) mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            guard c == 32 || c == 9 || c == 13 || c == 10 else { return }
            i += 1
        }
    }

    /// A value at `i` (space skipped); `comma` is where the comma before it was, if one was.
    @inlinable @inline(__always) mutating func value(comma: Int) throws(JSONSyntaxError) -> Token {
        _start = i
        guard i < bytes.count else { throw Self.failure(.expectedValue, at: i, in: bytes) }
        let c = bytes[i]
        state = .afterValue
        switch c {
        case 34:
            try string()
            return .string
        case 45, 48...57:
            try scanNumber()
            return .number
        case 123:
            try open(object: true)
            state = .firstKey
            return .objectStart
        case 91:
            try open(object: false)
            state = .firstValue
            return .arrayStart
        case 116:
            try literal(0x7472_7565, 4)  // "true"
            return .literalTrue
        case 102:
            guard i + 5 <= bytes.count, bytes[i + 4] == 101 else { throw Self.failure(.invalidLiteral, at: i, in: bytes) }
            try literal(0x6661_6c73, 4)  // "fals", then the "e" checked above
            i += 1
            return .literalFalse
        case 110:
            try literal(0x6e75_6c6c, 4)  // "null"
            return .null
        default:
            if comma >= 0, c == 93 { throw Self.failure(.trailingComma(false), at: comma, in: bytes) }
            throw Self.failure(.expectedValue, at: i, in: bytes)
        }
    }

    /// A key at `i` (space skipped) and its `:`.
    @inlinable @inline(__always) mutating func key(comma: Int) throws(JSONSyntaxError) -> Token {
        _start = i
        guard i < bytes.count, bytes[i] == 34 else {
            if comma >= 0, i < bytes.count, bytes[i] == 125 { throw Self.failure(.trailingComma(true), at: comma, in: bytes) }
            throw Self.failure(.expectedKey, at: i, in: bytes)
        }
        try string()
        skipSpace()
        guard i < bytes.count, bytes[i] == 58 else { throw Self.failure(.expectedColon, at: i, in: bytes) }
        i += 1
        state = .value
        return .key
    }

    /// Four bytes at `i` that must spell `word` (big-endian), consumed.
    @inlinable @inline(__always) mutating func literal(_ word: UInt32, _ n: Int) throws(JSONSyntaxError) {
        guard i + 4 <= bytes.count,
              UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3]) == word
        else { throw Self.failure(.invalidLiteral, at: i, in: bytes) }
        i += n
    }

    @inlinable @inline(__always) mutating func open(object: Bool) throws(JSONSyntaxError) {
        guard _depth < Self.maxDepth else { throw Self.failure(.tooDeep, at: i, in: bytes) }
        setKind(at: _depth, object: object)
        _depth += 1
        inObject = object
        i += 1
    }

    /// The closing bracket at `i`, of the innermost container.
    @inlinable @inline(__always) mutating func close() -> Token {
        _start = i
        i += 1
        let token: Token = inObject ? .objectEnd : .arrayEnd
        _depth -= 1
        if _depth > 0 { inObject = isObject(at: _depth - 1) }
        state = .afterValue
        return token
    }

    /// Whether the container at depth `d` + 1 is an object.
    @inlinable @inline(__always) func isObject(at d: Int) -> Bool {
        let bit = UInt64(1) &<< UInt64(d & 63)
        return (d < 64 ? objects : deeperWord(d &>> 6)) & bit != 0
    }

    @inlinable @inline(__always) mutating func setKind(at d: Int, object: Bool) {
        let bit = UInt64(1) &<< UInt64(d & 63)
        if d < 64 {
            objects = object ? objects | bit : objects & ~bit
        } else {
            let word = deeperWord(d &>> 6)
            setDeeperWord(d &>> 6, object ? word | bit : word & ~bit)
        }
    }

    @inlinable func deeperWord(_ w: Int) -> UInt64 {
        switch w {
        case 1: return deeper.0
        case 2: return deeper.1
        case 3: return deeper.2
        case 4: return deeper.3
        case 5: return deeper.4
        case 6: return deeper.5
        default: return deeper.6
        }
    }

    @inlinable mutating func setDeeperWord(_ w: Int, _ word: UInt64) {
        switch w {
        case 1: deeper.0 = word
        case 2: deeper.1 = word
        case 3: deeper.2 = word
        case 4: deeper.3 = word
        case 5: deeper.4 = word
        case 6: deeper.5 = word
        default: deeper.6 = word
        }
    }

    // MARK: - Strings

    /// The string whose opening quote is at `i`: checked to its closing quote, `i` after it.
    @inlinable @inline(__always) mutating func string() throws(JSONSyntaxError) {
        var k = i + 1
        _escaped = false
        _ascii = true
        while true {
            // Printable ASCII other than the quote and the backslash: most of every string.
            while k < bytes.count {
                let c = bytes[k]
                guard c &- 0x20 < 0x60, c != 34, c != 92 else { break }
                k += 1
            }
            guard k < bytes.count else { throw Self.failure(.unterminatedString, at: i, in: bytes) }
            let c = bytes[k]
            if c == 34 {
                textEnd = k
                i = k + 1
                return
            }
            if c == 92 {
                _escaped = true
                k = try Self.escape(at: k, in: bytes, string: i)
            } else if c < 0x20 {
                throw Self.failure(.controlCharacter, at: k, in: bytes)
            } else {
                _ascii = false
                k = try Self.utf8(at: k, in: bytes)
            }
        }
    }

    /// The escape whose backslash is at `k`; returns the offset after it.
    @inlinable @inline(never) static func escape(at k: Int, in bytes: UnsafeBufferPointer<UInt8>, string: Int) throws(JSONSyntaxError) -> Int {
        guard k + 1 < bytes.count else { throw Self.failure(.unterminatedString, at: string, in: bytes) }
        switch bytes[k + 1] {
        case 34, 92, 47, 98, 102, 110, 114, 116:
            return k + 2
        case 117:
            guard let code = hex4(at: k + 2, in: bytes) else { throw Self.failure(.invalidUnicodeEscape, at: k, in: bytes) }
            if code & 0xF800 != 0xD800 { return k + 6 }
            // A surrogate spells a character only as a high one followed by a low one.
            guard code < 0xDC00, k + 7 < bytes.count, bytes[k + 6] == 92, bytes[k + 7] == 117,
                  let low = hex4(at: k + 8, in: bytes), low & 0xFC00 == 0xDC00
            else { throw Self.failure(.unpairedSurrogate, at: k, in: bytes) }
            return k + 12
        default:
            throw Self.failure(.invalidEscape, at: k, in: bytes)
        }
    }

    @inlinable static func hex4(at k: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard k + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for j in k..<(k + 4) {
            let c = bytes[j]
            let d: UInt8
            switch c {
            case 48...57: d = c &- 48
            case 65...70: d = c &- 55
            case 97...102: d = c &- 87
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// The UTF-8 sequence whose lead byte (not ASCII) is at `k` (RFC 3629: no overlong forms,
    /// no surrogates, nothing above U+10FFFF); returns the offset after it.
    @inlinable @inline(never) static func utf8(at k: Int, in bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Int {
        let lead = bytes[k]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw Self.failure(.invalidUTF8, at: k, in: bytes)
        }
        guard k + length <= bytes.count, bytes[k + 1] >= low, bytes[k + 1] <= high else { throw Self.failure(.invalidUTF8, at: k, in: bytes) }
        for j in (k + 2)..<(k + length) where bytes[j] & 0xC0 != 0x80 { throw Self.failure(.invalidUTF8, at: k, in: bytes) }
        return k + length
    }

    /// The value of the string or key last returned, as UTF-8, its escapes decoded, appended
    /// to `out` (for one with `escaped`: `text` is it otherwise).
    @inlinable public func decode(into out: inout [UInt8]) {
        var k = _start + 1
        while k < textEnd {
            let c = bytes[k]
            guard c == 92 else {
                out.append(c)
                k += 1
                continue
            }
            let e = bytes[k + 1]
            k += 2
            switch e {
            case 98: out.append(8)
            case 102: out.append(12)
            case 110: out.append(10)
            case 114: out.append(13)
            case 116: out.append(9)
            case 117:
                // Checked by the scan: four hex digits, a surrogate only in a pair.
                var code = Self.hex4(at: k, in: bytes)!
                k += 4
                if code & 0xF800 == 0xD800 {
                    code = 0x10000 + ((code - 0xD800) << 10) + (Self.hex4(at: k + 2, in: bytes)! - 0xDC00)
                    k += 6
                }
                out.append(contentsOf: UTF8.encode(Unicode.Scalar(code)!)!)
            default: out.append(e)  // " \ /
            }
        }
    }

    // MARK: - Numbers

    /// The number at `i` (a `-` or a digit): checked, not converted (`number` converts it), but
    /// for one with an exponent or more than 300 digits before the point, which is converted
    /// here to refuse one out of range.
    @inlinable @inline(__always) mutating func scanNumber() throws(JSONSyntaxError) {
        var k = i
        if bytes[k] == 45 { k += 1 }
        guard k < bytes.count, bytes[k] &- 48 < 10 else { throw Self.failure(.digitAfterMinus, at: k, in: bytes) }
        if bytes[k] == 48 {
            k += 1
            if k < bytes.count, bytes[k] &- 48 < 10 { throw Self.failure(.leadingZero, at: i, in: bytes) }
        } else {
            while k < bytes.count, bytes[k] &- 48 < 10 { k += 1 }
        }
        var long = k - i > 300
        if k < bytes.count, bytes[k] == 46 {
            k += 1
            let first = k
            while k < bytes.count, bytes[k] &- 48 < 10 { k += 1 }
            guard k > first else { throw Self.failure(.digitAfterPoint, at: k, in: bytes) }
        }
        if k < bytes.count, bytes[k] | 0x20 == 101 {
            long = true
            k += 1
            if k < bytes.count, bytes[k] == 43 || bytes[k] == 45 { k += 1 }
            let first = k
            while k < bytes.count, bytes[k] &- 48 < 10 { k += 1 }
            guard k > first else { throw Self.failure(.digitInExponent, at: k, in: bytes) }
        }
        numberEnd = k
        converted = long
        if long {
            // A number too large for a double is an error: infinity would match any number in
            // a comparison, and no input means it. (Too small rounds to zero, as decimals do.)
            convertedValue = Self.convert(UnsafeBufferPointer(rebasing: bytes[i..<k]))
            guard convertedValue.isFinite else { throw Self.failure(.outOfRange, at: i, in: bytes) }
        }
        i = k
    }

    /// The value of the number last returned (correctly rounded, as `Double(String)` reads it).
    @inlinable @inline(__always) public var number: Double {
        if converted { return convertedValue }
        let text = UnsafeBufferPointer(rebasing: bytes[_start..<numberEnd])
        return Self.plainDecimal(text) ?? Self.convert(text)
    }

    /// `-?digits[.digits]` with at most 15 significant digits and 22 after the point: the
    /// mantissa and 10^k are exact doubles, so one division gives the correctly rounded value
    /// (Clinger's fast path). Nil for more digits.
    @inlinable static func plainDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var k = 0
        let negative = text[0] == 45
        if negative { k = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var fraction = -1
        while k < text.count {
            let c = text[k]
            k += 1
            if c == 46 {
                fraction = 0
                continue
            }
            // Zeros before the first significant digit do not count (0.000001 has one).
            if mantissa != 0 || c != 48 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(c &- 48)
            if fraction >= 0 { fraction += 1 }
        }
        guard significant <= 15, fraction <= 22 else { return nil }
        let value = Double(mantissa) / powerOfTen(max(fraction, 0))
        return negative ? -value : value
    }

    /// Any number the scan accepted: the standard library's correctly rounded conversion.
    @inline(never) @usableFromInline static func convert(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        Double(Substring(decoding: text, as: UTF8.self)) ?? .infinity
    }

    /// 10^n for n in 0...22, exactly (each is a double): a plain number's value is its digits
    /// over one of these (also the JSON Lines fast path's, `JSONLinesEventLine`).
    @inlinable @inline(__always) public static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    // MARK: - Errors

    @usableFromInline enum Problem {
        case expectedValue, expectedKey, expectedColon, expectedObject, afterTheValue
        /// Expected `,` or the closing bracket (`}` when true).
        case expectedCommaOrClose(Bool)
        /// A comma before the closing bracket (`}` when true).
        case trailingComma(Bool)
        case tooDeep, invalidLiteral
        case digitAfterMinus, digitAfterPoint, digitInExponent, leadingZero, outOfRange
        case unterminatedString, controlCharacter, invalidEscape, invalidUnicodeEscape, unpairedSurrogate, invalidUTF8
    }

    /// The error for `problem` at `offset` (out of line: the scanning code stays small).
    @inline(never) @usableFromInline static func failure(_ problem: Problem, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONSyntaxError {
        let found: String
        if offset >= bytes.count {
            found = "the end"
        } else if bytes[offset] > 32, bytes[offset] < 127 {
            found = "'\(Character(Unicode.Scalar(bytes[offset])))'"
        } else {
            found = "byte 0x" + String(bytes[offset], radix: 16, uppercase: true).leftPadded(to: 2)
        }
        let reason: String
        switch problem {
        case .expectedValue: reason = "expected a value, found \(found)"
        case .expectedKey: reason = "expected a string key, found \(found)"
        case .expectedColon: reason = "expected ':' after the key, found \(found)"
        case .expectedObject: reason = "expected an object, found \(found)"
        case .afterTheValue: reason = "unexpected \(found) after the value"
        case .expectedCommaOrClose(let object): reason = "expected ',' or '\(object ? "}" : "]")', found \(found)"
        case .trailingComma(let object): reason = "trailing comma before '\(object ? "}" : "]")'"
        case .tooDeep: reason = "nested deeper than \(Self.maxDepth) levels"
        case .invalidLiteral: reason = "invalid literal (expected true, false or null)"
        case .digitAfterMinus: reason = "expected a digit after '-', found \(found)"
        case .digitAfterPoint: reason = "expected a digit after '.', found \(found)"
        case .digitInExponent: reason = "expected a digit in the exponent, found \(found)"
        case .leadingZero: reason = "leading zero in a number"
        case .outOfRange: reason = "number out of range (larger than a double can hold)"
        case .unterminatedString: reason = "unterminated string"
        case .controlCharacter:
            reason = "control character U+" + String(bytes[offset], radix: 16, uppercase: true).leftPadded(to: 4)
                + " in a string (write it as an escape)"
        case .invalidEscape:
            let e = bytes[offset + 1]
            reason = e > 32 && e < 127 ? "invalid escape '\\\(Character(Unicode.Scalar(e)))'" : "invalid escape"
        case .invalidUnicodeEscape: reason = "invalid \\u escape (expected four hex digits)"
        case .unpairedSurrogate: reason = "unpaired surrogate in a \\u escape"
        case .invalidUTF8: reason = "invalid UTF-8 in a string"
        }
        return JSONSyntaxError(offset: offset, reason: reason)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
