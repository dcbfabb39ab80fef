/// A cursor over one line's bytes for the text formats (evemu, libinput rows, /proc/bus/input/devices):
/// parses integers in place, without building strings per field.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int = 0) {
        self.bytes = bytes
        i = start
    }

    var atEnd: Bool { i >= bytes.count }

    mutating func skipSpaces() {
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
    }

    /// True at the end of the line or at a `#` comment (after optional spaces).
    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return i >= bytes.count || bytes[i] == 35
    }

    mutating func take(_ c: UInt8) -> Bool {
        skipSpaces()
        guard i < bytes.count, bytes[i] == c else { return false }
        i += 1
        return true
    }

    /// An optionally signed integer in `radix` (10 or 16); nil when no digit follows.
    mutating func integer(radix: Int64 = 10) -> Int64? {
        skipSpaces()
        var negative = false
        if i < bytes.count, bytes[i] == 45 || bytes[i] == 43 {
            negative = bytes[i] == 45
            i += 1
        }
        if radix == 16, i + 1 < bytes.count, bytes[i] == 48, bytes[i + 1] | 0x20 == 120 { i += 2 }  // 0x
        // Accumulated with the sign, so Int64.min reads too.
        var value: Int64 = 0
        var digits = 0
        while i < bytes.count, let d = Self.digit(bytes[i], radix: radix) {
            let (m, o1) = value.multipliedReportingOverflow(by: radix)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            if o1 || o2 { return nil }
            value = s
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        return value
    }

    /// Digits after a decimal point, as an integer in units of 10^-`places` (truncated or padded).
    mutating func fraction(places: Int) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while i < bytes.count, let d = Self.digit(bytes[i], radix: 10) {
            if digits < places { value = value * 10 + d }
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        for _ in min(digits, places)..<places { value *= 10 }
        return value
    }

    /// The rest of the line without surrounding spaces.
    mutating func rest() -> String {
        skipSpaces()
        i = min(i, bytes.count)  // a cursor set past the end (a key without its ':') reads as empty
        var end = bytes.count
        while end > i, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        defer { i = bytes.count }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
    }

    @inline(__always)
    static func digit(_ c: UInt8, radix: Int64) -> Int64? {
        switch c {
        case 48...57: return Int64(c - 48)
        case 97...102 where radix == 16: return Int64(c - 87)
        case 65...70 where radix == 16: return Int64(c - 55)
        default: return nil
        }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard count >= n else { return false }
        let p = prefix.utf8Start
        for k in 0..<n where self[k] != p[k] { return false }
        return true
    }
}
