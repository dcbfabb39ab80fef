import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

private func motionscript(_ arguments: String..., stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    try runMotionscript(arguments, stdin: stdin)
}

/// `--device` repeated, selectors, pointer ids unique across devices, `device` on pointer events,
/// recognizers' `devices=`, `devices --json`, options that cannot repeat.
@Suite(.timeLimit(.minutes(5))) struct ManyDevicesTests {
    @Test func selectorsAndGlobs() {
        #expect(DeviceSelector("touchpad") == .kind(.touchpad))
        #expect(DeviceSelector("touchscreen") == .kind(.touchscreen))
        #expect(DeviceSelector("mouse") == .kind(.mouse))
        #expect(DeviceSelector("name=Wacom*") == .name("Wacom*"))
        #expect(DeviceSelector("/dev/input/event3") == .path("/dev/input/event3"))
        #expect(DeviceSelector.name("*Touchpad").matches(name: "SYNA1D31:00 06CB:CD48 Touchpad", kind: .touchpad))
        #expect(!DeviceSelector.name("Wacom*").matches(name: "ELAN Touchscreen", kind: .touchscreen))
        #expect(DeviceSelector.kind(.touchscreen).matches(name: "ELAN Touchscreen", kind: .touchscreen))
        #expect(PointerDevice.glob("event[0-9]?", matches: "event12"))
        #expect(!PointerDevice.glob("event[!0-9]", matches: "event1"))
        let pad = PointerDevice(name: "bcm5974", kind: "touchpad")
        #expect(pad.matches("touchpad") && !pad.matches("touchscreen") && pad.matches("bcm*") && pad.matches("name=bcm5974"))
    }

    @Test func anOptionGivenTwiceThatCannotRepeatIsAUsageError() throws {
        let r = try motionscript("run", "examples/drag.lua", "--events", "a.jsonl", "--events=b.jsonl")
        #expect(r.status == 2)
        #expect(r.stderr == "error: --events was given twice; it takes one value (only --device may repeat)\n")
        let record = try motionscript("record", "--device", "/nonexistent/a", "--device", "/nonexistent/b", "--axes", "0:9,0:9", "--axes", "0:9,0:9")
        #expect(record.status == 2)
        #expect(record.stderr == "error: --axes was given twice; it takes one value (only --device may repeat)\n")
        // The daemon reads several devices too (was: refused as an option given twice).
        let daemon = try motionscript("daemon", "examples/plugins", "--device", "/nonexistent/a", "--device", "/nonexistent/b", "--events", "x.jsonl")
        #expect(daemon.status == 2)
        #expect(daemon.stderr.contains("use --events or --device, not both"), "\(daemon.stderr)")
        let s = try motionscript("run", "examples/drag.lua", "--device", "/nonexistent/a", "--device", "/nonexistent/b")
        #expect(s.status == 2)
        #expect(s.stderr.contains("/nonexistent/a: no such device"))
    }

    /// `record --axes` writes the ranges a pipe cannot tell (raw bytes on stdin here), so the
    /// recording maps onto a surface later; a selector that matches nothing says so.
    @Test func recordTakesAxesAndSelectors() throws {
        var bytes = [UInt8]()
        bytes += inputEvent(sec: 1, usec: 0, 3, 0x39, 4) + inputEvent(sec: 1, usec: 0, 3, 0x35, 2048) + inputEvent(sec: 1, usec: 0, 3, 0x36, 100)
        bytes += inputEvent(sec: 1, usec: 0, 0, 0, 0)
        let r = try motionscript("record", "--device", "/dev/stdin", "--axes", "0:4095,0:1023", stdin: Data(bytes))
        #expect(r.status == 0)
        #expect(r.stdout.contains("A: 35 0 4095 0 0 0\n") && r.stdout.contains("A: 36 0 1023 0 0 0\n"))
        let none = try motionscript("record", "--device", "name=no such device*")
        #expect(none.status == 2)
        #expect(none.stderr.contains("name=no such device*: no device matches (see 'motionscript devices')"))
    }

    @Test func devicesJsonIsOneObjectPerLine() throws {
        let r = try motionscript("devices", "--json")
        #expect(r.status == 0)
        for line in r.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["kind"] is String && object?["name"] is String && object?.keys.contains("node") == true)
        }
    }

    /// Two FIFOs whose fingers share tracking id 7: the second gets a fresh id while the first is
    /// down; every event names its device; the first ending cancels nothing of the second.
    @Test func twoDevicesKeepIdsUniqueAndNameTheirDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let a = folder.appendingPathComponent("a").path, b = folder.appendingPathComponent("b").path
        #expect(mkfifo(a, 0o600) == 0 && mkfifo(b, 0o600) == 0)
        @Sendable func frame(_ usec: Int, _ events: [(UInt16, UInt16, Int32)]) -> [UInt8] {
            events.flatMap { inputEvent(sec: 10, usec: usec, $0.0, $0.1, $0.2) } + inputEvent(sec: 10, usec: usec, 0, 0, 0)
        }
        let down: @Sendable (Int, Int32) -> [UInt8] = { (usec: Int, x: Int32) in frame(usec, [(3, 0x2f, 0), (3, 0x39, 7), (3, 0x35, x), (3, 0x36, 0)]) }
        let lift: @Sendable (Int) -> [UInt8] = { (usec: Int) in frame(usec, [(3, 0x39, -1)]) }
        // a: down at t 0, lifts at 0.3; b: down at 0.1 (same tracking id), lifts at 0.2, down again at 0.4.
        // Lockstep, not sleeps: each frame is written once the reader has taken the one before,
        // so the order the devices are read in is the order written, however slow the machine.
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), consumed = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fa = open(a, O_WRONLY | O_CLOEXEC), fb = open(b, O_WRONLY | O_CLOEXEC)
            ready.signal()
            go.wait()
            func put(_ fd: Int32, _ bytes: [UInt8]) {
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                _ = consumed.wait(timeout: .now() + 10)
            }
            put(fa, down(0, 100)); put(fb, down(100_000, 500)); put(fb, lift(200_000)); put(fa, lift(300_000))
            close(fa)
            put(fb, down(400_000, 600))
            close(fb)
        }
        writer.start()
        let set = try LiveDeviceSet(selectors: [.path(a), .path(b)])
        defer { set.close() }
        ready.wait()
        go.signal()
        var events: [PointerEvent] = []
        var reason = ""
        loop: for _ in 0..<100 {
            switch try set.nextFrame(timeout: 10) {
            case .frame(let f):
                events += f.events
                consumed.signal()
            case .end(let r): reason = r; break loop
            case .timeout: break loop
            }
        }
        #expect(reason == "end of input")
        let summary = events.map { "\($0.device?.name == a ? "a" : "b") \($0.id) \($0.phase.rawValue) \($0.t)" }
        #expect(summary == ["a 7 down 0.0", "b 1000000 down 0.1", "b 1000000 up 0.2", "a 7 up 0.3", "b 7 down 0.4", "b 7 cancel 0.4"])
        #expect(events.allSatisfy { $0.device?.kind == "other" })
    }

    /// `record` with two devices writes one recording of both, which `run --events` replays
    /// in timestamp order with each pointer naming its device (`p.device`), as live.
    @Test func recordingTwoDevicesReplaysWithEachDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a").path, b = folder.appendingPathComponent("b").path
        let out = folder.appendingPathComponent("both.evemu").path, script = folder.appendingPathComponent("s.lua").path
        #expect(mkfifo(a, 0o600) == 0 && mkfifo(b, 0o600) == 0)
        @Sendable func frame(_ usec: Int, _ events: [(UInt16, UInt16, Int32)]) -> [UInt8] {
            events.flatMap { inputEvent(sec: 10, usec: usec, $0.0, $0.1, $0.2) } + inputEvent(sec: 10, usec: usec, 0, 0, 0)
        }
        // a: a finger from 0 to 0.3 s; b: one from 0.1 to 0.2 s. Written device by device: the
        // recording puts them in timestamp order.
        let writer = Thread {
            let fa = open(a, O_WRONLY | O_CLOEXEC), fb = open(b, O_WRONLY | O_CLOEXEC)
            let bytesA = frame(0, [(3, 0x39, 1), (3, 0x35, 10), (3, 0x36, 20)]) + frame(300_000, [(3, 0x39, -1)])
            let bytesB = frame(100_000, [(3, 0x39, 1), (3, 0x35, 50), (3, 0x36, 60)]) + frame(200_000, [(3, 0x39, -1)])
            _ = bytesA.withUnsafeBytes { write(fa, $0.baseAddress, $0.count) }
            close(fa)
            _ = bytesB.withUnsafeBytes { write(fb, $0.baseAddress, $0.count) }
            close(fb)
        }
        writer.start()
        let recorded = try motionscript("record", "--device", a, "--device", b, "-o", out)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("recorded 12 events of 2 devices (end of input)"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("# motionscript devices: 2\n") && text.contains("#2 N: \(b)\n"))
        try #"motion.pointers():subscribe(function(p) motion.emit("p", p.device.name:sub(-1) .. " " .. p.device.kind .. " " .. p.id .. " " .. p.phase) end)"#
            .write(toFile: script, atomically: true, encoding: .utf8)
        let replay = try motionscript("run", script, "--events", out)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.split(separator: "\n") == [
            #"{"t":0,"name":"p","value":"a other 1 down"}"#,
            #"{"t":0.1,"name":"p","value":"b other 1000000 down"}"#,
            #"{"t":0.2,"name":"p","value":"b other 1000000 up"}"#,
            #"{"t":0.3,"name":"p","value":"a other 1 up"}"#,
        ])
    }

    /// A live pointer event names its device in the output line, after its position; one from a
    /// file has no `device`.
    @Test func aPointerEventsDeviceIsPrinted() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("device-\(UUID().uuidString).lua").path
        try "motion.pointers():emit('p')\n".write(toFile: path, atomically: true, encoding: .utf8)
        let output = CollectedOutput()
        let runtime = try LuaRuntime(scriptPath: path, output: output)
        defer { runtime.close() }
        try runtime.load()
        let pad = PointerDevice(name: "bcm5974", kind: "touchpad")
        try runtime.handle(Frame(t: 0, events: [PointerEvent(t: 0, id: 3, phase: .down, x: 5, y: 6, device: pad)]))
        try runtime.handle(Frame(t: 0.5, events: [PointerEvent(t: 0.5, id: 4, phase: .down, x: 7, y: 8)]))
        #expect(output.lines == [
            #"{"t":0,"name":"p","value":{"id":3,"phase":"down","x":5,"y":6,"device":{"name":"bcm5974","kind":"touchpad"}}}"#,
            #"{"t":0.5,"name":"p","value":{"id":4,"phase":"down","x":7,"y":8}}"#,
        ])
    }

    /// `devices =` on a recognizer: only pointers from matching devices go down for it; pointers
    /// without a device (files) always do.
    @Test func recognizersWatchOnlyTheDevicesTheyAreGiven() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID().uuidString).lua").path
        try """
            motion.tapSource(motion.tap{devices = "touchpad"}):filter(function(v) return type(v) == "table" end):emit("pad")
            motion.tapSource(motion.tap{devices = {"touchscreen", "name=Wacom*"}}):filter(function(v) return type(v) == "table" end):emit("screen")
            motion.pointers():filter(function(p) return p.phase == "down" end):map(function(p) return p.device and p.device.kind or "none" end):emit("from")
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let output = CollectedOutput()
        let runtime = try LuaRuntime(scriptPath: path, output: output)
        defer { runtime.close() }
        try runtime.load()
        let pad = PointerDevice(name: "bcm5974", kind: "touchpad"), pen = PointerDevice(name: "Wacom Pen", kind: "other")
        for (i, device) in [pad, pen, nil].enumerated() {
            let t = Double(i)
            try runtime.handle(Frame(t: t, events: [PointerEvent(t: t, id: i, phase: .down, x: 5, y: 5, device: device)]))
            try runtime.handle(Frame(t: t + 0.1, events: [PointerEvent(t: t + 0.1, id: i, phase: .up, x: 5, y: 5, device: device)]))
        }
        try runtime.finish()
        #expect(output.lines.filter { !$0.contains("state") } == [
            #"{"t":0,"name":"from","value":"touchpad"}"#, #"{"t":0.1,"name":"pad","value":{"x":5,"y":5}}"#,
            #"{"t":1,"name":"from","value":"other"}"#, #"{"t":1.1,"name":"screen","value":{"x":5,"y":5}}"#,
            #"{"t":2,"name":"from","value":"none"}"#,
            #"{"t":2.1,"name":"pad","value":{"x":5,"y":5}}"#, #"{"t":2.1,"name":"screen","value":{"x":5,"y":5}}"#,
        ])
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).lua").path
        try "motion.pan{devices = 5}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let failing = try LuaRuntime(scriptPath: bad, output: CollectedOutput())
        defer { failing.close() }
        #expect { try failing.load() } throws: { "\($0)".contains("option 'devices' must be a device kind (touchpad, touchscreen, mouse, other) or name glob, or a list of them, got number") }
    }
}
