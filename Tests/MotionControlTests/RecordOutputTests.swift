import XCTest
import Foundation
import MotionControl
import MotionDaemon
import MotionGestures
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// `ctl record --output` names a path the daemon writes from its one thread: a FIFO there must
/// not freeze it (a blocking open or write waits for a reader), and a symbolic link must not
/// make it write elsewhere. Only regular files are written; the rest is refused with the reason.
final class RecordOutputTests: XCTestCase {
    var folder = ""

    override func setUp() {
        folder = NSTemporaryDirectory() + "record-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// A recorder holding one frame of one device (fed through a FIFO device).
    func recorderWithInput() throws -> (FlightRecorder, LiveDeviceSet) {
        let device = folder + "/device"
        XCTAssertEqual(mkfifo(device, 0o600), 0)
        let writer = Thread {
            let fd = open(device, O_WRONLY | O_CLOEXEC)
            let bytes = [InputEventRecord(sec: 10, usec: 0, type: 3, code: 0x35, value: 5).rawBytes,
                         InputEventRecord(sec: 10, usec: 0, type: 0, code: 0, value: 0).rawBytes].flatMap { $0 }
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let set = try LiveDeviceSet(selectors: [.path(device)])
        let recorder = FlightRecorder(seconds: 60)
        recorder.attach(to: set)
        loop: for _ in 0..<10 {
            if case .end = try set.nextFrame(timeout: 10) { break loop }
        }
        return (recorder, set)
    }

    func testAFIFOWithAReaderIsRefusedAndNothingIsWrittenIntoIt() throws {
        let (recorder, set) = try recorderWithInput()
        defer { set.close() }
        let fifo = folder + "/out.evemu"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A reader is there: a plain open would succeed and the daemon would write into the pipe
        // (and wait once it is full).
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(reader) }
        XCTAssertThrowsError(try recorder.write(lastSeconds: 60, to: fifo)) { error in
            XCTAssertEqual("\(error)", "cannot write \(fifo): it is a FIFO, not a regular file (the daemon writes regular files only)")
        }
        var byte: UInt8 = 0
        XCTAssertEqual(read(reader, &byte, 1), 0, "nothing reached the FIFO")
    }

    func testAFIFOWithoutAReaderIsRefusedAtOnce() throws {
        let (recorder, set) = try recorderWithInput()
        defer { set.close() }
        let fifo = folder + "/lonely.evemu"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try recorder.write(lastSeconds: 60, to: fifo)) { error in
            XCTAssertEqual("\(error)", "cannot write \(fifo): it is a FIFO, not a regular file (the daemon writes regular files only)")
        }
    }

    func testASymbolicLinkIsNotFollowedAndARegularFileIsReplaced() throws {
        let (recorder, set) = try recorderWithInput()
        defer { set.close() }
        let victim = folder + "/victim"
        try "keep me\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let link = folder + "/link.evemu"
        XCTAssertEqual(symlink(victim, link), 0)
        XCTAssertThrowsError(try recorder.write(lastSeconds: 60, to: link)) { error in
            XCTAssertEqual("\(error)", "cannot write \(link): it is a symbolic link, not a regular file (the daemon writes regular files only)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me\n")
        // A regular file is written over, as before.
        let written = try recorder.write(lastSeconds: 60, to: victim)
        XCTAssertEqual(written.events, 2)
        XCTAssertTrue(try String(contentsOfFile: victim, encoding: .utf8).hasPrefix("# EVEMU 1.3\n"))
    }
}
