import Testing
@testable import MotionInput

private func evemu(_ line: String) -> (fast: InputEventRecord?, general: InputEventRecord?, parsed: InputEventRecord?) {
    Array(line.utf8).withUnsafeBufferPointer {
        (EvemuEventLine.parse($0), EvemuReader.parseEventGenerally($0), EvemuReader.parseEvent($0))
    }
}

private func libinput(_ row: String) -> (fast: InputEventRecord?, general: InputEventRecord?) {
    Array(row.utf8).withUnsafeBufferPointer { (LibinputEventRow.parse($0), LibinputRecordingReader.parseRowGenerally($0)) }
}

private func record(_ sec: Int64, _ usec: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
    InputEventRecord(sec: sec, usec: usec, type: type, code: code, value: value)
}

/// The fast paths for the lines recorders write: they read those lines exactly as the general
/// parsers do, and leave every other spelling to them (nil), never reading it differently.
@Suite struct FastEventLineTests {
    @Test(arguments: [
        ("E: 1284881103.697884 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1", record(1284881103, 697884, 3, 0x39, -1)),
        ("E: 0.000000 0000 0000 0000", record(0, 0, 0, 0, 0)),
        ("E: 3.000143 0003 002f 0001\t# EV_ABS / ABS_MT_SLOT          1", record(3, 143, 3, 0x2f, 1)),
        ("E:\t12.345678\t0001\t014A\t999999999 #", record(12, 345678, 1, 0x14a, 999_999_999)),
        ("E:1.000001 3 35 -999999999", record(1, 1, 3, 0x35, -999_999_999)),
        ("E: 999999999999999999.999999 ffff FFFF 7", record(999_999_999_999_999_999, 999_999, 0xffff, 0xffff, 7)),
    ])
    func evemuLinesAsRecordersWriteThem(line: String, expected: InputEventRecord) {
        let r = evemu(line)
        #expect(r.fast == expected)
        #expect(r.general == expected)
    }

    @Test(arguments: [
        ("E: 1284881103.697884 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1", record(1284881103, 697884, 3, 0x39, -1)),
        ("E: 0.000000 0000 0000 0000", record(0, 0, 0, 0, 0)),
        ("E: 999999999999999999.999999 FFFF abCD 999999999 \t #", record(999_999_999_999_999_999, 999_999, 0xffff, 0xabcd, 999_999_999)),
        ("E: 7.000010 0001 014a 1 ", record(7, 10, 1, 0x14a, 1)),
    ])
    func evemuRecordLayoutTakesTheFixedWidthPath(line: String, expected: InputEventRecord) {
        Array(line.utf8).withUnsafeBufferPointer {
            #expect(EvemuEventLine.exactLayout($0) == expected)
            #expect(EvemuReader.parseEventGenerally($0) == expected)
        }
    }

    @Test(arguments: [
        "E:  1.000000 0003 0035 5", "E: 1.000000  0003 0035 5", "E: 1.000000 003 0035 5", "E: 1.000000 0003 0035 5#",
        "E:\t1.000000 0003 0035 5", "E: 1.000000 0003 0035\t5", "E: 1.000000 0003 0035 ", "E: 1.000000 0003 0035",
    ])
    func otherSpacingsLeaveTheFixedWidthPath(line: String) {
        Array(line.utf8).withUnsafeBufferPointer {
            #expect(EvemuEventLine.exactLayout($0) == nil)
            #expect(EvemuEventLine.anySpacing($0) == EvemuReader.parseEventGenerally($0))
        }
    }

    @Test(arguments: [
        "E: 1.000000 0003 0035 2147483647",  // ten digits: the general parser checks the range
        "E: 1.000000 0003 0035 -2147483648",
        "E: 1.000000 0003 0035 +5",
        "E: 1.000000 0x03 0035 5",
        "E: 1.000000 00003 0035 5",  // five hex digits
        "E: 1.0000001 0003 0035 5",  // seven digits of microseconds: truncated by the general parser
        "E: 1.001 0003 0035 5",  // three: padded by it
        "E: 1 .000000 0003 0035 5",
        "E: 1000000000000000000.000000 0003 0035 5",  // nineteen digits of seconds
    ])
    func evemuSpellingsLeftToTheGeneralParser(line: String) {
        let r = evemu(line)
        #expect(r.fast == nil)
        #expect(r.parsed == r.general)
        #expect(r.general != nil)
    }

    @Test(arguments: [
        "E: 1.000000 0003 0035 2147483648", "E: 1.000000 10000 0035 5", "E: -1.000000 0003 0035 5",
        "E: 1.000000 0003 0035 5x", "E: 1.000000 0003 0035", "E: 1.000000 0003 0035 5 6", "E: 1.", "E:", "E",
        "E: 1.000000 0003 0035 5\r", "E: 1.000000 0003 0035 - 5", "E: 1.000000 000g 0035 5",
    ])
    func evemuLinesNeitherAccepts(line: String) {
        let r = evemu(line)
        #expect(r.fast == nil)
        #expect(r.general == nil)
    }

    @Test(arguments: [
        ("- [  0,      0,   3,  57,    2194] # EV_ABS / ABS_MT_TRACKING_ID     2194", record(0, 0, 3, 57, 2194)),
        ("- [1700000000, 999999, 0, 0, 0]", record(1_700_000_000, 999_999, 0, 0, 0)),
        ("- [-5,-6,1,330,-1]#", record(-5, -6, 1, 330, -1)),
        ("- [ 1 , 2 , 65535 , 65535 , 999999999 ]  ", record(1, 2, 65535, 65535, 999_999_999)),
    ])
    func libinputRowsAsRecordersWriteThem(row: String, expected: InputEventRecord) {
        let r = libinput(row)
        #expect(r.fast == expected)
        #expect(r.general == expected)
    }

    @Test(arguments: [
        "- [0, 0, 3, 53, 2147483647]", "- [0, 0, 3, 53, +5]", "- [0, 0, -0, 53, 5]", "- [0, 0, 000003, 53, 5]",
        "- [1000000000000000000, 0, 3, 53, 5]",
    ])
    func libinputSpellingsLeftToTheGeneralParser(row: String) {
        let r = libinput(row)
        #expect(r.fast == nil)
        #expect(r.general != nil)
    }

    @Test(arguments: [
        "- [0, 0, 3, 53, 2147483648]", "- [0, 0, 65536, 53, 5]", "- [0, 0, 3, 53]", "- [0, 0, 3, 53, 5",
        "- [0, 0, 3, 53, 5] x", "- [0, 0, 3, 53, 5,]", "- [0 0, 3, 53, 5]", "-  [0, 0, 3, 53, 5]", "- [", "-", "",
    ])
    func libinputRowsNeitherAccepts(row: String) {
        let r = libinput(row)
        #expect(r.fast == nil)
        #expect(r.general == nil)
    }
}

private func jsonLine(_ line: String) -> (fast: JSONLinesFields?, general: JSONLinesFields?) {
    let reader = JSONLinesReader(input: InputBytes(path: "t", bytes: []))
    return Array(line.utf8).withUnsafeBufferPointer { (JSONLinesEventLine.parse($0), (try? reader.parseGenerally($0))?.fields) }
}

private func bits(_ f: JSONLinesFields?) -> [UInt64]? {
    f.map { [$0.t.bitPattern, $0.id.bitPattern, $0.x.bitPattern, $0.y.bitPattern] }
}

@Suite struct FastJSONLineTests {
    @Test(arguments: [
        ("{\"t\":0.004,\"id\":1,\"phase\":\"move\",\"x\":0.25,\"y\":0.125}", JSONLinesFields(t: 0.004, id: 1, phase: .move, x: 0.25, y: 0.125)),
        (" { \"y\" : -0.0 , \"x\":-12.375,\"phase\":\"cancel\",\"id\":7,\"t\":123456789.012345 } \r",
         JSONLinesFields(t: 123456789.012345, id: 7, phase: .cancel, x: -12.375, y: -0.0)),
        ("{\"t\":1,\"t\":2,\"id\":3,\"phase\":\"up\",\"phase\":\"down\",\"x\":0,\"y\":999999999999999}",
         JSONLinesFields(t: 2, id: 3, phase: .down, x: 0, y: 999_999_999_999_999)),
        ("{\"t\":0.000000000000000001,\"id\":-1,\"phase\":\"up\",\"x\":1.5,\"y\":2}", JSONLinesFields(t: 1e-18, id: -1, phase: .up, x: 1.5, y: 2)),
    ])
    func linesAsProgramsWriteThem(line: String, expected: JSONLinesFields) {
        let r = jsonLine(line)
        #expect(r.fast == expected)
        #expect(bits(r.fast) == bits(r.general))
        #expect(r.fast?.phase == r.general?.phase)
        // Negative zero stays negative: the bits agree, not just the values.
        #expect(r.fast.map { $0.y.sign } == expected.y.sign)
    }

    @Test(arguments: [
        "{\"t\":1e3,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}",
        "{\"t\":1E3,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0.1234567890123456,\"y\":0}",  // 16 significant digits
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0.00000000000000000000001,\"y\":0}",  // 23 decimals
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0.0000000000000000000001,\"y\":0}",  // 20 digits
        "{\"t\":1,\"id\":1,\"phase\":\"mo\\u0076e\",\"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0,\"pressure\":0.5}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0,\"meta\":{\"a\":[1,2]}}",
    ])
    func spellingsLeftToTheGeneralParser(line: String) {
        let r = jsonLine(line)
        #expect(r.fast == nil)
        #expect(r.general != nil)
    }

    @Test(arguments: [
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0}", "{\"t\":1,\"id\":1,\"phase\":\"hover\",\"x\":0,\"y\":0}",
        "{\"t\":\"1\",\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}", "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0} x",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0,}",
        "{\"t\":1.2.3,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}", "{\"t\":--1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0", "{}", "", "{\"t\":1,\"id\":1,\"phase\":\"move\" \"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}}", "{\"t\":1,\"id\":1,\"phase\":move,\"x\":0,\"y\":0}",
        // Not JSON (RFC 8259), though the standard library reads them as numbers: both refuse them.
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":.5,\"y\":0}", "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":-.5,\"y\":0}",
        "{\"t\":1.,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}", "{\"t\":+1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":007,\"phase\":\"move\",\"x\":0,\"y\":0}", "{\"t\":01,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0}", "{\"t\":1,\"id\":-01,\"phase\":\"move\",\"x\":0,\"y\":0}",
        "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":00.5,\"y\":0}", "{\"t\":1,\"id\":1,\"phase\":\"move\",\"x\":0,\"y\":0,\"n\":\"\\ud800\"}",
    ])
    func linesNeitherAccepts(line: String) {
        let r = jsonLine(line)
        #expect(r.fast == nil)
        #expect(r.general == nil)
    }
}
