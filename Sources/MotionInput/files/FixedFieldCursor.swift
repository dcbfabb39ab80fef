/// A cursor for the fast paths of evemu `E:` lines in any spacing (`EvemuEventLine.anySpacing`)
/// and libinput event rows (`LibinputEventRow`).
/// It reads only the short, unsigned or `-`-signed digit runs recorders write, so no value can
/// overflow; anything else makes the fast path give up and the general parser (`ByteScanner`)
/// decide. A fast path only ever accepts a subset of what
/// the general parser accepts, with the same values.
struct FixedFieldCursor {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private(set) var i: Int

    init?(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
        guard let base = bytes.baseAddress, start <= bytes.count else { return nil }
        self.base = base
        end = bytes.count
        i = start
    }

    @inline(__always)
    private func byte(_ k: Int) -> UInt8 { k < end ? base[k] : 0 }

    /// Skips spaces and tabs; false when there were none.
    @inline(__always)
    mutating func spaces() -> Bool {
        let from = i
        while i < end, base[i] == 32 || base[i] == 9 { i += 1 }
        return i > from
    }

    /// Consumes `c` if it is next.
    @inline(__always)
    mutating func take(_ c: UInt8) -> Bool {
        guard byte(i) == c else { return false }
        i += 1
        return true
    }

    /// 1 to `maxDigits` (at most 18) decimal digits, optionally after a `-` when `signed`.
    @inline(__always)
    mutating func decimal(maxDigits: Int, signed: Bool) -> Int64? {
        let negative = signed && take(45)
        let from = i
        var value: Int64 = 0
        while i < end {
            let d = base[i] &- 48
            if d > 9 { break }
            value = value &* 10 &+ Int64(d)
            i += 1
        }
        let digits = i - from
        guard digits > 0, digits <= maxDigits else { return nil }
        return negative ? -value : value
    }

    /// Exactly `count` decimal digits, not followed by another digit.
    @inline(__always)
    mutating func digits(exactly count: Int) -> Int64? {
        guard i + count <= end else { return nil }
        var value: Int64 = 0
        for k in i..<i + count {
            let d = base[k] &- 48
            if d > 9 { return nil }
            value = value * 10 + Int64(d)
        }
        i += count
        if byte(i) &- 48 <= 9 { return nil }
        return value
    }

    /// 1 to 4 hex digits (no `0x`), not followed by another hex digit: 0...0xffff.
    @inline(__always)
    mutating func hex4() -> UInt16? {
        var value: UInt16 = 0
        let from = i
        while i < end, i - from < 5 {
            let c = base[i]
            let d: UInt8
            if c &- 48 <= 9 { d = c &- 48 } else if (c | 0x20) &- 97 <= 5 { d = (c | 0x20) &- 87 } else { break }
            value = value &<< 4 | UInt16(d)
            i += 1
        }
        let digits = i - from
        guard digits > 0, digits <= 4 else { return nil }
        return value
    }

    /// True at the end of the line or at a `#` comment, after optional spaces.
    @inline(__always)
    mutating func atEndOrComment() -> Bool {
        _ = spaces()
        return i >= end || base[i] == 35
    }
}
