/// The fast path of evemu `E:` lines as evemu-record writes them:
/// `E: 1284881103.697884 0003 0039 -001` (six digits of microseconds, types and codes of up to four
/// hex digits, fields separated by spaces or tabs), with an optional `# comment`. Event lines hold
/// almost all of a recording's bytes.
enum EvemuEventLine {
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        exactLayout(line) ?? anySpacing(line)
    }

    /// Exactly evemu-record's `E: %lu.%06u %04x %04x %04d` with an optional comment: the
    /// fixed-width fields checked and converted without loops, seconds and value by the cursor.
    @inline(__always)
    static func exactLayout(_ line: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        guard line.count > 3, line[2] == 32, var c = FixedFieldCursor(line, at: 3),
              let sec = c.decimal(maxDigits: 18, signed: false), let p = line.baseAddress else { return nil }
        let n = line.count
        let i = c.i
        // Seconds, then ".dddddd hhhh hhhh " (18 bytes) and at least one byte of the value.
        guard i + 18 < n, p[i] == 46 else { return nil }
        let q = p + i + 1
        let u0 = q[0] &- 48, u1 = q[1] &- 48, u2 = q[2] &- 48, u3 = q[3] &- 48, u4 = q[4] &- 48, u5 = q[5] &- 48
        guard u0 <= 9, u1 <= 9, u2 <= 9, u3 <= 9, u4 <= 9, u5 <= 9, q[6] == 32, q[11] == 32, q[16] == 32 else { return nil }
        let t0 = hexValue(q[7]), t1 = hexValue(q[8]), t2 = hexValue(q[9]), t3 = hexValue(q[10])
        let c0 = hexValue(q[12]), c1 = hexValue(q[13]), c2 = hexValue(q[14]), c3 = hexValue(q[15])
        // Each is below 16, or 16 (bit 4) when not a hex digit.
        guard (t0 | t1 | t2 | t3 | c0 | c1 | c2 | c3) < 16 else { return nil }
        var usec = Int64(u0) * 100_000 + Int64(u1) * 10_000 + Int64(u2) * 1000
        usec += Int64(u3) * 100 + Int64(u4) * 10 + Int64(u5)
        let type = UInt16(t0) << 12 | UInt16(t1) << 8 | UInt16(t2) << 4 | UInt16(t3)
        let code = UInt16(c0) << 12 | UInt16(c1) << 8 | UInt16(c2) << 4 | UInt16(c3)
        // The value, then nothing, or spaces and an optional comment.
        guard var v = FixedFieldCursor(line, at: i + 18), let value = v.decimal(maxDigits: 9, signed: true),
              v.i == n || p[v.i] == 9 || p[v.i] == 32, v.atEndOrComment() else { return nil }
        return InputEventRecord(sec: sec, usec: usec, type: type, code: code, value: Int32(truncatingIfNeeded: value))
    }

    /// 0...15 for a hex digit, 16 for any other byte.
    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8 {
        let d = c &- 48
        if d <= 9 { return d }
        let letter = (c | 0x20) &- 97
        return letter <= 5 ? letter + 10 : 16
    }

    /// Fields of any width within the limits, separated by any spaces or tabs.
    static func anySpacing(_ line: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        guard var c = FixedFieldCursor(line, at: 2) else { return nil }
        _ = c.spaces()
        guard let sec = c.decimal(maxDigits: 18, signed: false), c.take(46),
              let usec = c.digits(exactly: 6), c.spaces(),
              let type = c.hex4(), c.spaces(),
              let code = c.hex4(), c.spaces(),
              let value = c.decimal(maxDigits: 9, signed: true),
              c.atEndOrComment() else { return nil }
        return InputEventRecord(sec: sec, usec: usec, type: type, code: code, value: Int32(truncatingIfNeeded: value))
    }
}
