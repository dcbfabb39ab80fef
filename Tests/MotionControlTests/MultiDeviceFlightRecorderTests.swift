import XCTest
import Foundation
import MotionControl
import MotionDaemon
import MotionGestures
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// The flight recorder over two live devices writes one recording of both, which replays to
/// the frames the live set delivered: same times, ids, positions and devices.
final class MultiDeviceFlightRecorderTests: XCTestCase {
    static func record(sec: Int, usec: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        InputEventRecord(sec: Int64(sec), usec: Int64(usec), type: type, code: code, value: value).rawBytes
    }

    func testTwoDevicesReplayAsTheyWereLive() throws {
        let folder = NSTemporaryDirectory() + "multi-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/a", b = folder + "/b"
        XCTAssertEqual(mkfifo(a, 0o600), 0)
        XCTAssertEqual(mkfifo(b, 0o600), 0)
        @Sendable func frame(_ usec: Int, _ events: [(UInt16, UInt16, Int32)]) -> [UInt8] {
            events.flatMap { Self.record(sec: 10, usec: usec, $0.0, $0.1, $0.2) } + Self.record(sec: 10, usec: usec, 0, 0, 0)
        }
        let down: @Sendable (Int, Int32) -> [UInt8] = { usec, x in frame(usec, [(3, 0x2f, 0), (3, 0x39, 7), (3, 0x35, x), (3, 0x36, 40)]) }
        let move: @Sendable (Int, Int32) -> [UInt8] = { usec, x in frame(usec, [(3, 0x35, x)]) }
        let lift: @Sendable (Int) -> [UInt8] = { usec in frame(usec, [(3, 0x39, -1)]) }
        // a: down at 0, lifts at 0.3; b: down at 0.1 with the same tracking id (a fresh id
        // live), moves, lifts at 0.2, down again at 0.4 and still down at the end.
        // Lockstep, not sleeps: each frame is written once the one before was taken.
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), consumed = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fa = open(a, O_WRONLY | O_CLOEXEC), fb = open(b, O_WRONLY | O_CLOEXEC)
            ready.signal()
            go.wait()
            func put(_ fd: Int32, _ bytes: [UInt8]) {
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                _ = consumed.wait(timeout: .now() + 10)
            }
            put(fa, down(0, 100)); put(fb, down(100_000, 500)); put(fb, move(150_000, 550)); put(fb, lift(200_000))
            put(fa, lift(300_000)); put(fb, down(400_000, 600))
            close(fa)
            close(fb)
        }
        writer.start()
        let set = try LiveDeviceSet(selectors: [.path(a), .path(b)])
        defer { set.close() }
        let recorder = FlightRecorder(seconds: 60)
        recorder.attach(to: set)
        ready.wait()
        go.signal()
        var live: [Frame] = []
        loop: for _ in 0..<100 {
            switch try set.nextFrame(timeout: 10) {
            case .frame(let f):
                live.append(f)
                consumed.signal()
            case .end, .timeout: break loop
            }
        }
        func summary(_ frames: [Frame]) -> [String] {
            frames.map { f in "\(f.t): " + f.events.map { "\($0.device?.name == a ? "a" : $0.device?.name == b ? "b" : "?") \($0.device?.kind ?? "-") \($0.id) \($0.phase.rawValue) \($0.x) \($0.y)" }.joined(separator: ", ") }
        }
        XCTAssertEqual(summary(live), [
            "0.0: a other 7 down 100.0 40.0", "0.1: b other 1000000 down 500.0 40.0", "0.15: b other 1000000 move 550.0 40.0",
            "0.2: b other 1000000 up 550.0 40.0", "0.3: a other 7 up 100.0 40.0", "0.4: b other 7 down 600.0 40.0", "0.4: b other 7 cancel 600.0 40.0",
        ])
        let path = folder + "/both.evemu"
        let written = try recorder.write(lastSeconds: 60, to: path)
        // b had more input: it is device 1.
        XCTAssertEqual(written.devices, ["\(b) (other: \(b))", "\(a) (other: \(a))"])
        XCTAssertEqual(written.events, 21)
        XCTAssertEqual(summary(try openEventFile(path: path).readAll()), summary(live))
    }

    /// A pipe read with `--axes` (resolutions included, so millimetres): the recording carries
    /// those ranges as its `A:` lines, and its replay with the defaults reads what the daemon read.
    func testARecordingKeepsTheAxesTheDaemonRanWith() throws {
        let folder = NSTemporaryDirectory() + "axes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pad = folder + "/pad"
        XCTAssertEqual(mkfifo(pad, 0o600), 0)
        var bytes: [UInt8] = []
        for (usec, events) in [(0, [(UInt16(3), UInt16(0x2f), Int32(0)), (3, 0x39, 7), (3, 0x35, 600), (3, 0x36, 240)]),
                               (100_000, [(3, 0x35, 744)]), (200_000, [(3, 0x39, -1)])] {
            bytes += events.flatMap { Self.record(sec: 10, usec: usec, $0.0, $0.1, $0.2) } + Self.record(sec: 10, usec: usec, 0, 0, 0)
        }
        let all = bytes
        let writer = Thread {
            let fd = open(pad, O_WRONLY | O_CLOEXEC)
            _ = all.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        guard case .success(let axes) = EventFileOptions.parseAxes("0:1200:12,0:800:8") else { return XCTFail() }
        var options = EventFileOptions.desktopDefault
        options.axes = axes
        let set = try LiveDeviceSet(selectors: [.path(pad)], options: options)
        defer { set.close() }
        let recorder = FlightRecorder(seconds: 60, axes: axes)
        recorder.attach(to: set)
        var live: [Frame] = []
        loop: for _ in 0..<100 {
            switch try set.nextFrame(timeout: 10) {
            case .frame(let f): live.append(f)
            case .end, .timeout: break loop
            }
        }
        func summary(_ frames: [Frame]) -> [String] {
            frames.map { f in "\(f.t): " + f.events.map { "\($0.id) \($0.phase.rawValue) \($0.x) \($0.y)" }.joined(separator: ", ") }
        }
        // Millimetres: 600 units at 12 a mm is 50 mm, 240 at 8 is 30 mm; 144 units later, 12 mm on.
        XCTAssertEqual(summary(live), ["0.0: 7 down 50.0 30.0", "0.1: 7 move 62.0 30.0", "0.2: 7 up 62.0 30.0"])
        let path = folder + "/misfire.evemu"
        _ = try recorder.write(lastSeconds: 60, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\nA: 35 0 1200 0 0 12\nA: 36 0 800 0 0 8\n"), text)
        XCTAssertEqual(summary(try openEventFile(path: path, options: .desktopDefault).readAll()), summary(live))
    }
}
