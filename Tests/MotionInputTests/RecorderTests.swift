import MotionTestSupport
import Testing
import Foundation
import MotionGestures
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

@Suite(.timeLimit(.minutes(5))) struct RecorderTests {
    @Test func eventLinesUseEvemuPadding() {
        let e = InputEventRecord(sec: 3, usec: 143, type: EV.ABS, code: ABS.MT_TRACKING_ID, value: -1)
        #expect(EvemuWriter.eventLine(e, sec: 3, usec: 143) == "E: 3.000143 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID -1\n")
        let x = InputEventRecord(sec: 0, usec: 0, type: EV.ABS, code: ABS.MT_POSITION_X, value: 27024)
        #expect(EvemuWriter.eventLine(x, sec: 0, usec: 1) == "E: 0.000001 0003 0035 27024\t# EV_ABS / ABS_MT_POSITION_X 27024\n")
        let s = InputEventRecord(sec: 0, usec: 0, type: EV.SYN, code: SYN.REPORT, value: 0)
        #expect(EvemuWriter.eventLine(s, sec: 3, usec: 143, sinceLastReportMs: 8) == "E: 3.000143 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +8ms\n")
    }

    @Test func headerDescribesTheDevice() {
        let header = EvemuWriter.header(touchscreen(slots: 2))
        let lines = header.split(separator: "\n")
        #expect(lines.first == "# EVEMU 1.3")
        #expect(lines.contains("N: Test touchscreen"))
        #expect(lines.contains("I: 0000 0000 0000 0000"))
        #expect(lines.contains("P: 02 00 00 00 00 00 00 00"))
        #expect(lines.contains("B: 00 0b 00 00 00 00 00 00 00"))
        #expect(lines.contains("B: 03 03 00 00 00 00 80 60 02"))
        #expect(lines.filter { $0.hasPrefix("B: 01") }.count == 12)
        #expect(lines.contains("A: 2f 0 1 0 0 0"))
        #expect(lines.contains("A: 35 0 1000 0 0 0"))
    }

    /// Record from a pipe of raw records, replay the evemu file: the same pointer events.
    @Test func recordThenReplayRoundTrip() throws {
        let dir = TempDir()
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let bytes = rawBytes(pinchEvents)
        let writer = Thread { [fds] in writeInPieces(fds[1], bytes, chunks: [7, 200, 5], pause: 1_000) }
        writer.start()
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        let path = dir.path("pinch.evemu")
        let result = try recordEvemu(from: reader, to: path, axes: EventFileOptions.ranges(x: 0...1000, y: 0...1000, resolution: 12))
        reader.close()
        #expect(result.events == pinchEvents.count)
        #expect(result.endReason == "end of input")

        let replayed = try openEventFile(path: path)
        #expect(replayed is EvemuReader)
        // The recording keeps its device (a pipe: named by its path, kind from its description);
        // the pointers are the same.
        let frames = try replayed.readAll()
        #expect(frames.first?.events.first?.device?.name == "<pipe>")
        #expect(frames.first?.events.first?.device?.kind == "other")
        #expect(frames.map(Self.withoutDevice) == pinchFrames)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("A: 35 0 1000 0 0 12\n"))
        #expect(text.contains("E: 0.000001 0003 002f 0000\t"))
        #expect(text.contains("E: 0.048001 0003 0039 -001\t"))
        // The ranges written make --surface work on the replay.
        let mapped = try openEventFile(path: path, options: EventFileOptions(surface: (100, 100))).nextFrame()
        #expect(mapped.map(Self.withoutDevice)?.events == [p(0, 1, .down, 40, 50), p(0, 2, .down, 60, 50)])
    }

    static func withoutDevice(_ frame: Frame) -> Frame {
        var frame = frame
        for i in frame.events.indices { frame.events[i].device = nil }
        return frame
    }

    @Test(.enabled(if: recordingsDir != nil, "needs the evemu recordings in ../shared/recordings"))
    func realRecordingSurvivesWriteAndReread() throws {
        let dir = try #require(recordingsDir)
        let tmp = TempDir()
        let original = try EvemuReader(path: "\(dir)/wetab.evemu")
        let expected = try original.readAll()
        // Re-record the events of the file through the writer.
        let lines = try LineReader(path: "\(dir)/wetab.evemu")
        let writer = try EvemuWriter(path: tmp.path("wetab.evemu"), device: original.device)
        while let event = try lines.nextLine({ $0.hasPrefix("E:") ? EvemuReader.parseEvent($0) : nil }) {
            if let event { try writer.write(event) }
        }
        try writer.close()
        #expect(try EvemuReader(path: tmp.path("wetab.evemu")).readAll() == expected)
    }
}

@Suite(.timeLimit(.minutes(5))) struct DeviceListTests {
    static let proc = """
    I: Bus=0011 Vendor=0001 Product=0001 Version=ab41
    N: Name="AT Translated Set 2 keyboard"
    P: Phys=isa0060/serio0/input0
    S: Sysfs=/devices/platform/i8042/serio0/input/input0
    U: Uniq=
    H: Handlers=sysrq kbd event0 leds
    B: PROP=0
    B: EV=120013
    B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe
    B: MSC=10
    B: LED=7

    I: Bus=0018 Vendor=04f3 Product=2a1c Version=0100
    N: Name="ELAN Touchscreen"
    H: Handlers=mouse1 event5
    B: PROP=2
    B: EV=b
    B: KEY=400 0 0 0 0 0
    B: ABS=3273800000000003

    I: Bus=0018 Vendor=06cb Product=cd8b Version=0100
    N: Name="SYNA2393:00 06CB:CD8B Touchpad"
    H: Handlers=mouse2 event7
    B: PROP=5
    B: EV=1b
    B: KEY=e520 10000 0 0 0 0
    B: ABS=2e0800000000003
    B: MSC=20

    I: Bus=0003 Vendor=046d Product=c077 Version=0111
    N: Name="Logitech USB Optical Mouse"
    H: Handlers=mouse0 event3
    B: PROP=0
    B: EV=17
    B: KEY=ff0000 0 0 0 0
    B: REL=1943
    B: MSC=10

    """

    @Test func parsesKindsAndNodes() {
        let devices = InputDeviceList.parse(Self.proc)
        #expect(devices.map(\.name) == ["AT Translated Set 2 keyboard", "ELAN Touchscreen", "SYNA2393:00 06CB:CD8B Touchpad", "Logitech USB Optical Mouse"])
        #expect(devices.map(\.eventNode) == ["/dev/input/event0", "/dev/input/event5", "/dev/input/event7", "/dev/input/event3"])
        #expect(devices.map(\.kind) == [.other, .touchscreen, .touchpad, .mouse])
        #expect(devices[1].properties == [INPUT_PROP.DIRECT])
        #expect(devices[2].properties == [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD])
        #expect(devices[1].absCodes == [0, 1, 0x2f, 0x30, 0x31, 0x34, 0x35, 0x36, 0x39, 0x3c, 0x3d])
        #expect(devices[3].relCodes == [REL.X, REL.Y, REL.WHEEL, REL.HWHEEL, 11, 12])
        #expect(devices[1].eventTypes == [EV.SYN, EV.KEY, EV.ABS])
    }

    /// The listing is this machine's `/proc/bus/input/devices` parsed (build machines usually
    /// have no input devices: then it is empty), one entry a device block, and an empty list
    /// where the file cannot be read.
    @Test func currentIsThisMachinesDeviceList() throws {
        let listed = InputDeviceList.current()
        guard let text = try? String(contentsOfFile: InputDeviceList.procPath, encoding: .utf8) else {
            #expect(listed.isEmpty)
            return
        }
        #expect(listed == InputDeviceList.parse(text))
        let blocks = text.components(separatedBy: "\n").filter { $0.hasPrefix("N: Name=") }.count
        #expect(listed.count == blocks)
        #expect(listed.allSatisfy { $0.eventNode?.hasPrefix("/dev/input/event") ?? true })
    }
}
