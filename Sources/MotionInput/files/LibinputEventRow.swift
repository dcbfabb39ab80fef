/// The fast path of libinput event rows as `libinput record` writes them:
/// `- [  0,   8000,  3,  53,     503] # comment` (decimal fields, spaces around the commas).
enum LibinputEventRow {
    /// `text` starts at the row's `- [`. One pass with a local cursor (no loop keeps its index in
    /// memory).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        guard let p = text.baseAddress, text.count > 3, p[0] == 45, p[1] == 32, p[2] == 91 else { return nil }
        let n = text.count
        var k = 3
        @inline(__always) func spaces() {
            while k < n, p[k] == 32 || p[k] == 9 { k += 1 }
        }
        /// Spaces, 1 to `maxDigits` digits (after a `-` when `signed`), spaces, then `end`.
        @inline(__always) func field(signed: Bool, maxDigits: Int, then end: UInt8) -> Int64? {
            spaces()
            let negative = signed && k < n && p[k] == 45
            if negative { k += 1 }
            let from = k
            var value: Int64 = 0
            while k < n {
                let d = p[k] &- 48
                if d > 9 { break }
                value = value &* 10 &+ Int64(d)
                k += 1
            }
            guard k > from, k - from <= maxDigits else { return nil }
            spaces()
            guard k < n, p[k] == end else { return nil }
            k += 1
            return negative ? -value : value
        }
        guard let sec = field(signed: true, maxDigits: 18, then: 44),
              let usec = field(signed: true, maxDigits: 18, then: 44),
              let type = field(signed: false, maxDigits: 5, then: 44), type <= 0xffff,
              let code = field(signed: false, maxDigits: 5, then: 44), code <= 0xffff,
              let value = field(signed: true, maxDigits: 9, then: 93) else { return nil }
        spaces()
        guard k == n || p[k] == 35 else { return nil }
        return InputEventRecord(sec: sec, usec: usec, type: UInt16(type), code: UInt16(code), value: Int32(truncatingIfNeeded: value))
    }
}
