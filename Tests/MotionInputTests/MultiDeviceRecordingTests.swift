import Testing
import Foundation
import MotionGestures
@testable import MotionInput

/// Recordings of several devices (`# motionscript devices: N`, docs/input.md): written by
/// `EvemuWriter`, read back on one time line with each pointer naming its device, device 1
/// readable alone by tools that know evemu only.
@Suite struct MultiDeviceRecordingTests {
    static func touchpad() -> DeviceDescription {
        var d = touchscreen(slots: 5, x: 2000, y: 1000)
        d.name = "Test touchpad"
        d.properties = [INPUT_PROP.POINTER]
        return d
    }

    /// Screen: a finger (tracking id 7) down at 0 ms, up at 30 ms. Pad: tracking id 7 too, down
    /// at 10 ms (while the screen's is down), moves at 20 ms, up at 40 ms.
    static let screen: [InputEventRecord] = [
        axis(0, ABS.MT_SLOT, 0), axis(0, ABS.MT_TRACKING_ID, 7), axis(0, ABS.MT_POSITION_X, 100), axis(0, ABS.MT_POSITION_Y, 200), syn(0),
        axis(30, ABS.MT_TRACKING_ID, -1), syn(30),
    ]
    static let pad: [InputEventRecord] = [
        axis(10, ABS.MT_SLOT, 0), axis(10, ABS.MT_TRACKING_ID, 7), axis(10, ABS.MT_POSITION_X, 1500), axis(10, ABS.MT_POSITION_Y, 500), syn(10),
        axis(20, ABS.MT_POSITION_X, 1600), syn(20),
        axis(40, ABS.MT_TRACKING_ID, -1), syn(40),
    ]

    static func write(_ dir: TempDir) throws -> String {
        let path = dir.path("two.evemu")
        let writer = try EvemuWriter(path: path, devices: [(touchscreen(), "touchscreen"), (touchpad(), "touchpad")])
        var merged = screen.map { ($0, 0) } + pad.map { ($0, 1) }
        merged.sort { ($0.0.sec, $0.0.usec) < ($1.0.sec, $1.0.usec) }
        for (event, device) in merged { try writer.write(event, device: device) }
        try writer.close()
        return path
    }

    static func summary(_ frames: [Frame]) -> [String] {
        frames.flatMap { $0.events.map { "\($0.t) \($0.device?.kind ?? "-") \($0.id) \($0.phase.rawValue) \($0.x) \($0.y)" } }
    }

    @Test func twoDevicesReplayOnOneTimeLineWithTheirDevices() throws {
        let dir = TempDir()
        let path = try Self.write(dir)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "# EVEMU 1.3")
        #expect(lines.contains("# motionscript device kind: touchscreen"))
        #expect(lines.contains("# motionscript devices: 2"))
        #expect(lines.contains("N: Test touchscreen"))
        #expect(lines.contains("#2 # motionscript device kind: touchpad"))
        #expect(lines.contains("#2 N: Test touchpad"))
        #expect(lines.contains("#2 A: 35 0 2000 0 0 0"))
        #expect(lines.contains { $0.hasPrefix("#2 E: 0.010001 0003 0039 0007") })
        #expect(lines.contains { $0.hasPrefix("E: 0.030001 0003 0039 -001") })
        let source = try openEventFile(path: path)
        #expect(source is EvemuReader)
        let frames = try source.readAll()
        // The pad's id 7 is down on the screen: it gets a fresh one until it lifts.
        #expect(Self.summary(frames) == [
            "0.0 touchscreen 7 down 100.0 200.0",
            "0.01 touchpad 1000000 down 1500.0 500.0",
            "0.02 touchpad 1000000 move 1600.0 500.0",
            "0.03 touchscreen 7 up 100.0 200.0",
            "0.04 touchpad 1000000 up 1600.0 500.0",
        ])
        #expect(frames.allSatisfy { frame in frame.events.allSatisfy { $0.t == frame.t } })
        #expect(frames.flatMap(\.events).map { $0.device?.name } == ["Test touchscreen", "Test touchpad", "Test touchpad", "Test touchscreen", "Test touchpad"])
        #expect((source as? EvemuReader)?.device.name == "Test touchscreen")
    }

    /// A tool that knows evemu only sees device 1: the others' lines are comments to it.
    @Test func deviceOneReadsAloneWithoutTheDevicesComment() throws {
        let dir = TempDir()
        let text = try String(contentsOfFile: try Self.write(dir), encoding: .utf8)
        let plain = dir.write("one.evemu", text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("# motionscript devices:") }.joined(separator: "\n"))
        #expect(Self.summary(try openEventFile(path: plain).readAll()) == [
            "0.0 touchscreen 7 down 100.0 200.0",
            "0.03 touchscreen 7 up 100.0 200.0",
        ])
    }

    /// Pointers still down on several devices at the end are cancelled in one frame, at the
    /// last time of the input (not each device's own last time, which would go backwards).
    @Test func theEndCancelsEveryDevicesPointersAtTheLastTime() throws {
        let dir = TempDir()
        let path = dir.path("open.evemu")
        let writer = try EvemuWriter(path: path, devices: [(touchscreen(), "touchscreen"), (Self.touchpad(), "touchpad")])
        try writer.write(axis(0, ABS.MT_TRACKING_ID, 1), device: 0)
        try writer.write(syn(0), device: 0)
        try writer.write(axis(50, ABS.MT_TRACKING_ID, 2), device: 1)
        try writer.write(syn(50), device: 1)
        try writer.close()
        let frames = try openEventFile(path: path).readAll()
        #expect(Self.summary(frames) == [
            "0.0 touchscreen 1 down 0.0 0.0", "0.05 touchpad 2 down 0.0 0.0",
            "0.05 touchscreen 1 cancel 0.0 0.0", "0.05 touchpad 2 cancel 0.0 0.0",
        ])
    }

    static func header(_ devices: String = "2") -> String {
        "# EVEMU 1.3\n# motionscript devices: \(devices)\nN: a\nA: 35 0 100 0 0\nA: 36 0 100 0 0\n#2 N: b\n#2 A: 35 0 100 0 0\n#2 A: 36 0 100 0 0\n"
    }

    @Test func mistakesAreErrorsAtTheirLine() throws {
        let dir = TempDir()
        func failure(_ text: String) -> String? {
            let path = dir.write("bad.evemu", text)
            return errorText { _ = try openEventFile(path: path).readAll() }.map { $0.replacingOccurrences(of: dir.url.path + "/", with: "") }
        }
        #expect(failure(Self.header() + "E: 0.000001 0003 0039 0001\n#3 E: 0.000002 0000 0000 0000\n")
            == "bad.evemu:10: line of device 3, but the recording declares 2 devices ('# motionscript devices: 2'; device 1's lines have no '#N ' prefix)")
        #expect(failure(Self.header() + "#1 E: 0.000002 0000 0000 0000\n")
            == "bad.evemu:9: line of device 1, but the recording declares 2 devices ('# motionscript devices: 2'; device 1's lines have no '#N ' prefix)")
        // Time goes backwards from one device's line to the other's.
        #expect(failure(Self.header() + "E: 0.500000 0003 0039 0001\nE: 0.500000 0000 0000 0000\n#2 E: 0.400000 0003 0039 0002\n")
            == "bad.evemu:11: time goes backwards: t=-0.1 after t=0.0")
        #expect(failure(Self.header() + "#2 X: 1\nE: 0.1 0000 0000 0000\n")
            == "bad.evemu:9: malformed evemu line: expected a description line (N:, I:, P:, B:, A:) or an event (E:)")
        #expect(failure(Self.header() + "E: 0.1 0000 0000 0000\n#2 N: late\n")
            == "bad.evemu:10: malformed evemu line: expected an event (E:) after the first event")
        #expect(failure(Self.header("0"))
            == "bad.evemu:2: malformed motionscript comment: expected '# motionscript devices: N' with N from 1 to 64")
        #expect(failure("# motionscript devices: 2\n# motionscript devices: 2\n") == "bad.evemu:2: # motionscript devices: … appears twice")
        // Without the devices comment, '#2 …' lines are comments, as they always were.
        #expect(failure("N: a\n#2 X: whatever\nE: 0.1 0000 0000 0000\n") == nil)
    }
}
