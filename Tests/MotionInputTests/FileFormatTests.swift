import Testing
import MotionGestures
@testable import MotionInput

private let evemuTap = """
# EVEMU 1.3
# Input device name: "Tiny touchscreen"
N: Tiny touchscreen
I: 0003 1234 5678 0100
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
A: 00 0 1000 0 0 10
A: 01 0 500 0 0 10
A: 2f 0 1 0 0 0
A: 35 0 1000 0 0 10
A: 36 0 500 0 0 10
A: 39 0 65535 0 0 0
################################
#      Waiting for events      #
################################
E: 0.000001 0003 0039 0012\t# EV_ABS / ABS_MT_TRACKING_ID   12
E: 0.000001 0003 0035 0100\t# EV_ABS / ABS_MT_POSITION_X    100
E: 0.000001 0003 0036 0200\t# EV_ABS / ABS_MT_POSITION_Y    200
E: 0.000001 0001 014a 0001\t# EV_KEY / BTN_TOUCH            1
E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
E: 0.016001 0003 0035 0150
E: 0.016001 0000 0000 0000
E: 0.032001 0003 0039 -001
E: 0.032001 0001 014a 0000
E: 0.032001 0000 0000 0000

"""

@Suite struct EvemuReaderTests {
    @Test func handMadeRecording() throws {
        let dir = TempDir()
        let path = dir.write("tap.evemu", evemuTap)
        let source = try openEventFile(path: path)
        let reader = try #require(source as? EvemuReader)
        #expect(reader.device.name == "Tiny touchscreen")
        #expect(reader.device.vendor == 0x1234)
        #expect(reader.device.properties == [INPUT_PROP.DIRECT])
        #expect(reader.device.absinfo[ABS.MT_POSITION_Y] == AbsInfo(minimum: 0, maximum: 500, resolution: 10))
        #expect(reader.device.codes[EV.ABS] == [ABS.X, ABS.Y, ABS.MT_SLOT, ABS.MT_POSITION_X, ABS.MT_POSITION_Y, ABS.MT_TRACKING_ID])
        #expect(try reader.readAll() == [
            Frame(t: 0, events: [p(0, 12, .down, 100, 200)]),
            Frame(t: 0.016, events: [p(0.016, 12, .move, 150, 200)]),
            Frame(t: 0.032, events: [p(0.032, 12, .up, 150, 200)]),
        ])
    }

    @Test func surfaceUsesTheARanges() throws {
        let dir = TempDir()
        let frames = try openEventFile(path: dir.write("tap.evemu", evemuTap), options: EventFileOptions(surface: (100, 100))).readAll()
        #expect(frames[0].events == [p(0, 12, .down, 10, 40)])
    }

    @Test(arguments: [
        ("E: 0.000001 0003 0039", 1, "malformed evemu event: expected 'E: sec.usec type code value' (type and code hex, value decimal)"),
        ("E: 0.000001 0003 0039 12 junk", 1, "malformed evemu event: expected 'E: sec.usec type code value' (type and code hex, value decimal)"),
        ("A: 35 0", 1, "malformed evemu line: expected 'A: code min max fuzz flat [resolution]' (code hex)"),
        ("hello", 1, "malformed evemu line: expected a description line (N:, I:, P:, B:, A:) or an event (E:)"),
    ])
    func malformedLines(line: String, at: Int, message: String) throws {
        let dir = TempDir()
        let path = dir.write("bad.evemu", "# EVEMU 1.3\nN: x\n" + line + "\n")
        #expect(throws: InputError(file: path, line: at + 2, message)) { _ = try EvemuReader(path: path).readAll() }
    }

    @Test func malformedEventAfterFirstEvent() throws {
        let dir = TempDir()
        let path = dir.write("bad.evemu", "# EVEMU 1.3\nE: 0.000001 0000 0000 0000\nE: 0.1 zz 0 0\n")
        let text = errorText { _ = try openEventFile(path: path).readAll() }
        #expect(text == "\(path):3: malformed evemu event: expected 'E: sec.usec type code value' (type and code hex, value decimal)")
    }

    @Test func decoderErrorsCarryTheLine() throws {
        let dir = TempDir()
        let path = dir.write("slot.evemu", "# EVEMU 1.3\nA: 2f 0 1 0 0\nA: 35 0 10 0 0\nA: 36 0 10 0 0\nE: 0.0 0003 002f 0005\nE: 0.0 0000 0000 0000\n")
        #expect(throws: InputError(file: path, line: 5, "slot 5 is beyond the device's maximum slot 1")) { _ = try openEventFile(path: path).readAll() }
    }
}

private func libinputRecording(secondDeviceRows: String) -> String {
    """
    # libinput record
    version: 1
    ndevices: 2
    libinput:
      version: "1.25.0"
      git: "unknown"
    system:
      os: "debian:12"
      kernel: "6.1.0"
      dmi: "dmi:bvnX"
    devices:
    - node: /dev/input/event3
      evdev:
        # Name: AT Translated Set 2 keyboard
        name: "AT Translated Set 2 keyboard"
        id: [17, 1, 1, 43841]
        codes:
          0: [0, 1, 4, 17, 20] # EV_SYN
          1: [1, 2, 3, 4] # EV_KEY
        properties: []
      udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_KEYBOARD=1
      events:
      - evdev:
        - [  0,      0,   1,   2,       1] # EV_KEY / KEY_1                     1
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
    - node: /dev/input/event7
      evdev:
        # Name: SynPS/2 Synaptics TouchPad
        # Size in mm: 70x50
        name: "SynPS/2 Synaptics TouchPad"
        id: [17, 2, 7, 433]
        codes:
          0: [0, 1, 2, 3] # EV_SYN
          1: [272, 325, 330, 333] # EV_KEY
          3: [0, 1, 24, 47, 53, 54, 57, 58] # EV_ABS
        absinfo:
          0: [0, 700, 0, 0, 10]
          1: [0, 500, 0, 0, 10]
          24: [0, 255, 0, 0, 0]
          47: [0, 1, 0, 0, 0]
          53: [0, 700, 0, 0, 10]
          54: [0, 500, 0, 0, 10]
          57: [0, 65535, 0, 0, 0]
          58: [0, 255, 0, 0, 0]
        properties: [0, 2]
      hid: [5, 1, 9, 2]
      udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_TOUCHPAD=1
      quirks:
      events:
      # Current time is 10:00:00
      - evdev:
        - [  0,      0,   3,  57,    2194] # EV_ABS / ABS_MT_TRACKING_ID     2194
        - [  0,      0,   3,  53,     206] # EV_ABS / ABS_MT_POSITION_X       206
        - [  0,      0,   3,  54,     311] # EV_ABS / ABS_MT_POSITION_Y       311
        - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
      - libinput:
        - {time: 0.000000, type: POINTER_MOTION, delta: [0.00, 0.00]}
    \(secondDeviceRows)
    """
}

@Suite struct LibinputReaderTests {
    @Test func multiDeviceRecordingUsesFirstPointerDevice() throws {
        let dir = TempDir()
        let path = dir.write("pad.yml", libinputRecording(secondDeviceRows: """
              - evdev:
                - [  0,  12000,   3,  53,     216] # EV_ABS / ABS_MT_POSITION_X       216
                - [  0,  12000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
                                                   # Touch device in neutral state
              # Current time is 10:00:01
              - evdev:
                - [  1,   5000,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID       -1
                - [  1,   5000,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
                - [  1,   5000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +993ms
            """))
        let source = try openEventFile(path: path)
        let reader = try #require(source as? LibinputRecordingReader)
        #expect(reader.device.name == "SynPS/2 Synaptics TouchPad")
        #expect(reader.device.properties == [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD])
        #expect(reader.device.absinfo[ABS.MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 700, resolution: 10))
        #expect(try reader.readAll() == [
            Frame(t: 0, events: [p(0, 2194, .down, 206, 311)]),
            Frame(t: 0.012, events: [p(0.012, 2194, .move, 216, 311)]),
            Frame(t: 1.005, events: [p(1.005, 2194, .up, 216, 311)]),
        ])
    }

    @Test func malformedRowHasFileAndLine() throws {
        let dir = TempDir()
        let text = libinputRecording(secondDeviceRows: """
              - evdev:
                - [  0,  12000,   3,  53] # too short
            """)
        let path = dir.write("bad.yml", text)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("too short") }! + 1
        #expect(throws: InputError(file: path, line: line, "malformed libinput event row: expected '- [sec, usec, type, code, value]'")) {
            _ = try openEventFile(path: path).readAll()
        }
    }

    @Test func malformedAbsinfoHasFileAndLine() throws {
        let dir = TempDir()
        let text = libinputRecording(secondDeviceRows: "").replacingOccurrences(of: "53: [0, 700, 0, 0, 10]", with: "53: [0, 700]")
        let path = dir.write("bad.yml", text)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("53: [0, 700]") }! + 1
        #expect(throws: InputError(file: path, line: line, "malformed 'absinfo' entry: expected 'code: [min, max, fuzz, flat, resolution]'")) {
            _ = try openEventFile(path: path)
        }
    }

    @Test func yamlThatIsNotALibinputRecording() throws {
        let dir = TempDir()
        let path = dir.write("config.yaml", "name: my app\nitems:\n  - one\n  - two\n")
        #expect(throws: InputError(file: path, "not a libinput recording: no top-level 'devices:' list (expected the output of 'libinput record')")) {
            _ = try openEventFile(path: path)
        }
        let other = dir.write("devices.yaml", "devices:\n- node: x\n")
        #expect(throws: InputError(file: other, line: 1, "not a libinput recording: 'devices:' without a preceding 'version: 1'")) {
            _ = try openEventFile(path: other)
        }
        let version = dir.write("v2.yml", "# libinput record\nversion: 2\ndevices:\n")
        #expect(throws: InputError(file: version, line: 2, "unsupported libinput recording version 2 (expected 1)")) {
            _ = try openEventFile(path: version)
        }
    }
}

@Suite struct RawReaderTests {
    private let tap: [InputEventRecord] = [
        axis(0, ABS.MT_TRACKING_ID, 4), axis(0, ABS.MT_POSITION_X, 30), axis(0, ABS.MT_POSITION_Y, 40), syn(0),
        axis(20, ABS.MT_POSITION_X, 35), syn(20),
    ]

    @Test func rawBytesDecode() throws {
        let dir = TempDir()
        let path = dir.write("tap.bin", bytes: rawBytes(tap + [axis(30, ABS.MT_TRACKING_ID, -1), syn(30)]))
        let source = try openEventFile(path: path)
        #expect(source is RawEvdevReader)
        #expect(try source.readAll() == [
            Frame(t: 0, events: [p(0, 4, .down, 30, 40)]),
            Frame(t: 0.02, events: [p(0.02, 4, .move, 35, 40)]),
            Frame(t: 0.03, events: [p(0.03, 4, .up, 35, 40)]),
        ])
    }

    @Test func rawWithExplicitRangesOntoSurface() throws {
        let dir = TempDir()
        let path = dir.write("tap.raw", bytes: rawBytes(tap))
        let options = EventFileOptions(surface: (10, 10), axes: EventFileOptions.ranges(x: 0...100, y: 0...100))
        #expect(try openEventFile(path: path, options: options).nextFrame()?.events == [p(0, 4, .down, 3, 4)])
    }

    @Test func truncatedFinalRecordIsAnErrorAfterTheValidFrames() throws {
        let dir = TempDir()
        let bytes = rawBytes(tap) + Array(rawBytes([syn(40)]).prefix(10))
        let path = dir.write("cut.raw", bytes: bytes)
        let source = try openEventFile(path: path)
        #expect(try source.nextFrame()?.events == [p(0, 4, .down, 30, 40)])
        #expect(try source.nextFrame()?.events == [p(0.02, 4, .move, 35, 40)])
        #expect(throws: InputError(file: path, place: .byteOffset(144), "truncated input_event: 10 of 24 bytes at the end of the file")) {
            _ = try source.nextFrame()
        }
        #expect("\(InputError(file: path, place: .byteOffset(144), "x"))" == "\(path): byte 144: x")
    }

    @Test func decoderErrorsCarryTheByteOffset() throws {
        let dir = TempDir()
        let path = dir.write("noid.raw", bytes: rawBytes([axis(0, ABS.MT_TRACKING_ID, 1), axis(0, ABS.MT_SLOT, 1), axis(0, ABS.MT_POSITION_X, 3), syn(0)]))
        #expect(throws: InputError(file: path, place: .byteOffset(48), "position for slot 1, which has no tracking id (ABS_MT_TRACKING_ID)")) {
            _ = try openEventFile(path: path).readAll()
        }
    }

    @Test func unknownTypesCountedThroughTheReader() throws {
        let dir = TempDir()
        let path = dir.write("odd.raw", bytes: rawBytes([ev(0, 0x1d, 0, 0)] + tap + [ev(1, 0x20, 0, 0)]))
        let opened = try openEventFile(path: path)
        let info = try #require(opened as? EvdevSourceInfo)
        #expect(try opened.readAll().count == 3)
        #expect(info.unknownEventCount == 2)
        #expect(info.droppedCount == 0)
    }
}

@Suite struct DetectionTests {
    @Test func contentWinsOverExtension() throws {
        let dir = TempDir()
        #expect(try openEventFile(path: dir.write("a.txt", evemuTap)) is EvemuReader)
        #expect(try openEventFile(path: dir.write("b.evemu", "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n")) is JSONLinesReader)
        #expect(try openEventFile(path: dir.write("c.jsonl", bytes: rawBytes([syn(0)]))) is RawEvdevReader)
        #expect(EventFileFormat.detect(head: Array("# libinput record\nversion: 1\n".utf8), path: "x") == .libinput)
        #expect(EventFileFormat.detect(head: Array("N: dev\nI: 0003 0 0 0\n".utf8), path: "x") == .evemu)
        #expect(EventFileFormat.detect(head: [], path: "empty.jsonl") == .jsonLines)
        #expect(EventFileFormat.detect(head: [], path: "empty") == nil)
    }

    @Test func emptyFileWithoutKnownExtensionIsAnError() throws {
        let dir = TempDir()
        let path = dir.write("empty", "")
        #expect(throws: InputError(file: path, "unrecognized event file: expected JSON Lines, an evemu or libinput recording, or raw evdev bytes")) {
            _ = try openEventFile(path: path)
        }
    }
}

/// A file whose lines end in CR alone (classic Mac OS) is one line to a reader that splits on
/// LF. The evemu reader took that line for one comment: no events, exit 0. Every text reader
/// refuses it at line 1, saying why.
@Suite struct CarriageReturnOnlyTests {
    private func crOnly(_ text: String) -> [UInt8] {
        Array(text.utf8).map { $0 == 10 ? 13 : $0 }
    }

    @Test func evemuWithCROnlyLineEndingsIsRefused() throws {
        let dir = TempDir()
        let path = dir.write("tap.evemu", bytes: crOnly(evemuTap))
        #expect(throws: InputError(file: path, line: 1, EvemuReader.carriageReturnLines)) {
            _ = try openEventFile(path: path).readAll()
        }
        // Without the leading comment: the description lines must not swallow the rest either.
        let bare = dir.write("bare.evemu", bytes: crOnly(evemuTap.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")))
        #expect(throws: InputError(file: bare, line: 1, EvemuReader.carriageReturnLines)) {
            _ = try openEventFile(path: bare).readAll()
        }
        // CR LF (Windows) line endings still read.
        let crlf = dir.write("crlf.evemu", evemuTap.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try openEventFile(path: crlf).readAll().count == 3)
    }

    @Test func jsonLinesAndLibinputWithCROnlyLineEndingsAreRefusedToo() throws {
        let dir = TempDir()
        let json = dir.write("e.jsonl", bytes: crOnly(#"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n" + #"{"t":1,"id":1,"phase":"up","x":1,"y":2}"# + "\n"))
        #expect(throws: InputError.self) { _ = try openEventFile(path: json).readAll() }
        let libinput = dir.write("r.yml", bytes: crOnly(libinputRecording(secondDeviceRows: "")))
        #expect(throws: InputError.self) { _ = try openEventFile(path: libinput).readAll() }
    }
}
