/// The fast path of libinput event rows as `libinput record` writes them:
/// `- [  0,   8000,  3,  53,     503] # comment` (decimal fields, spaces around the commas).
enum LibinputEventRow {
    /// `text` starts at the row's `- [`.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        guard text.count > 3, text[0] == 45, text[1] == 32, text[2] == 91,
              var c = FixedFieldCursor(text, at: 3) else { return nil }
        /// Spaces, 1 to `maxDigits` digits (after a `-` when `signed`), spaces, then `end`.
        @inline(__always) func field(signed: Bool, maxDigits: Int, then end: UInt8) -> Int64? {
            _ = c.spaces()
            guard let value = c.decimal(maxDigits: maxDigits, signed: signed) else { return nil }
            _ = c.spaces()
            return c.take(end) ? value : nil
        }
        guard let sec = field(signed: true, maxDigits: 18, then: 44),
              let usec = field(signed: true, maxDigits: 18, then: 44),
              let type = field(signed: false, maxDigits: 5, then: 44), type <= 0xffff,
              let code = field(signed: false, maxDigits: 5, then: 44), code <= 0xffff,
              let value = field(signed: true, maxDigits: 9, then: 93),
              c.atEndOrComment() else { return nil }
        return InputEventRecord(sec: sec, usec: usec, type: UInt16(type), code: UInt16(code), value: Int32(truncatingIfNeeded: value))
    }
}
