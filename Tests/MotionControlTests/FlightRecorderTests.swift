import XCTest
import MotionControl
import MotionDaemon
import MotionGestures
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

final class FlightRecorderTests: XCTestCase {
    func frame(_ ring: RawEventRing, at t: Int64, x: Int32) {
        ring.append(InputEventRecord(sec: t / 1_000_000, usec: t % 1_000_000, type: 3, code: 0, value: x))
        ring.append(InputEventRecord(sec: t / 1_000_000, usec: t % 1_000_000, type: 0, code: 0, value: 0))
    }

    func testTheRingKeepsTheLastEventsAndStartsAtAFrame() {
        let ring = RawEventRing(capacity: 5)
        XCTAssertNil(ring.lastMicroseconds)
        for i in 0..<4 { frame(ring, at: 1_000_000 + Int64(i) * 10_000, x: Int32(i)) }
        // 8 events went in, 5 stay: x=1's SYN, x=2, SYN, x=3, SYN; the cut frame is dropped.
        XCTAssertEqual(ring.lastMicroseconds, 1_030_000)
        XCTAssertEqual(ring.events(since: 0).map(\.value), [2, 0, 3, 0])
        // A window: only what lies in it, from a frame boundary.
        XCTAssertEqual(ring.events(since: 1_025_000).map(\.value), [3, 0])
    }

    /// Focus changes go into the recording as app comments, where they happened among the
    /// events: the focus at the window's start first, then each before the event it precedes.
    func testARecordingCarriesTheFocusChangesAmongItsEvents() throws {
        let recorder = FlightRecorder(seconds: 10)
        recorder.noteFocus(AppInfo(id: "old"), at: 1)
        recorder.noteFocus(AppInfo(id: "firefox"), at: 2)
        recorder.noteFocus(AppInfo(id: "foot", title: "sh"), at: 5.005)
        recorder.noteFocus(nil, at: 5.02)
        // 'old' lies before the window's start (15 - 10 s) behind a later change: dropped.
        recorder.noteFocus(AppInfo(id: "kitty"), at: 15)
        XCTAssertEqual(recorder.focusChanges.map { $0.app?.id ?? "null" }, ["firefox", "foot", "null", "kitty"])
        var d = DeviceDescription()
        d.name = "Test Pad"
        d.add(type: 3, code: 0)
        d.absinfo[0] = AbsInfo(minimum: 0, maximum: 1000)
        let path = NSTemporaryDirectory() + "focus-\(getpid()).evemu"
        defer { unlink(path) }
        let writer = try EvemuWriter(path: path, device: d, keptKind: nil)
        let events = [InputEventRecord(sec: 5, usec: 0, type: 3, code: 0, value: 100), InputEventRecord(sec: 5, usec: 0, type: 0, code: 0, value: 0),
                      InputEventRecord(sec: 5, usec: 10_000, type: 3, code: 0, value: 200), InputEventRecord(sec: 5, usec: 10_000, type: 0, code: 0, value: 0)]
        try FlightRecorder.write(events, focus: recorder.focusChanges, to: writer)
        try writer.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("E:") || $0.hasPrefix("# motionscript:") }
        XCTAssertEqual(lines.map { $0.hasPrefix("E:") ? "E" : String($0) }, [
            #"# motionscript: {"app":{"id":"firefox"}}"#, "E", "E",
            #"# motionscript: {"app":{"id":"foot","title":"sh"}}"#, "E", "E",
        ])
    }

    func testTheScenarioScriptRunsEachPluginWithGlobalsOfItsOwn() {
        let writer = ScenarioWriter(declarations: ["axes: 0:1000,0:1000"], input: EventFileOptions())
        XCTAssertEqual(writer.script(folder: "/home/u/.config/motionscript", plugins: ["swipe", "tap"], seconds: 10), """
            -- axes: 0:1000,0:1000
            -- Written by `motionscript ctl scenario`: the plugins of /home/u/.config/motionscript over 10 s of recorded input.
            -- Each plugin runs with globals of its own, as the daemon gives each a Lua state of its own.
            local folder = "/home/u/.config/motionscript"
            package.path = folder .. "/?.lua;" .. folder .. "/?/init.lua;" .. package.path
            for _, plugin in ipairs{ "swipe", "tap" } do
              local env = setmetatable({}, { __index = _G })
              local chunk = assert(loadfile(folder .. "/" .. plugin .. ".lua", "t", env))
              chunk()
            end

            """)
    }
}

final class RecordingKeepsItsDeviceTests: XCTestCase {
    func write(keptKind: String?) throws -> String {
        var d = DeviceDescription()
        d.name = "Test Pad"
        d.add(type: 1, code: 0x14a)  // BTN_TOUCH
        for code: UInt16 in [0, 1] {
            d.add(type: 3, code: code)
            d.absinfo[code] = AbsInfo(minimum: 0, maximum: 1000)
        }
        let path = NSTemporaryDirectory() + "kept-\(keptKind ?? "none")-\(getpid()).evemu"
        let writer = try EvemuWriter(path: path, device: d, keptKind: keptKind)
        for e in [InputEventRecord(sec: 5, usec: 0, type: 1, code: 0x14a, value: 1), InputEventRecord(sec: 5, usec: 0, type: 3, code: 0, value: 100),
                  InputEventRecord(sec: 5, usec: 0, type: 3, code: 1, value: 200), InputEventRecord(sec: 5, usec: 0, type: 0, code: 0, value: 0),
                  InputEventRecord(sec: 5, usec: 10_000, type: 1, code: 0x14a, value: 0), InputEventRecord(sec: 5, usec: 10_000, type: 0, code: 0, value: 0)] {
            try writer.write(e)
        }
        try writer.close()
        return path
    }

    func testARecordingThatKeepsItsDeviceReplaysWithIt() throws {
        let path = try write(keptKind: "touchpad")
        defer { unlink(path) }
        let source = try EvemuReader(path: path)
        let frame = try XCTUnwrap(try source.nextFrame())
        XCTAssertEqual(frame.events.first?.phase, .down)
        XCTAssertEqual(frame.events.first?.device?.name, "Test Pad")
        XCTAssertEqual(frame.events.first?.device?.kind, "touchpad")
        XCTAssertEqual(try source.nextFrame()?.events.first?.device?.kind, "touchpad")
    }

    func testOtherRecordingsReplayWithoutADeviceAsBefore() throws {
        let path = try write(keptKind: nil)
        defer { unlink(path) }
        let frame = try XCTUnwrap(try EvemuReader(path: path).nextFrame())
        XCTAssertEqual(frame.events.first?.phase, .down)
        XCTAssertNil(frame.events.first?.device)
    }
}
