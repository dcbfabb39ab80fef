import MotionTestSupport
import Testing
import Foundation
import MotionGestures
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// A two-finger gesture as raw protocol B records.
let pinchEvents: [InputEventRecord] = [
    axis(0, ABS.MT_SLOT, 0), axis(0, ABS.MT_TRACKING_ID, 1), axis(0, ABS.MT_POSITION_X, 400), axis(0, ABS.MT_POSITION_Y, 500),
    axis(0, ABS.MT_SLOT, 1), axis(0, ABS.MT_TRACKING_ID, 2), axis(0, ABS.MT_POSITION_X, 600), axis(0, ABS.MT_POSITION_Y, 500),
    key(0, BTN.TOUCH, 1), syn(0),
    axis(16, ABS.MT_SLOT, 0), axis(16, ABS.MT_POSITION_X, 350), axis(16, ABS.MT_SLOT, 1), axis(16, ABS.MT_POSITION_X, 650), syn(16),
    axis(32, ABS.MT_SLOT, 0), axis(32, ABS.MT_POSITION_X, 300), axis(32, ABS.MT_SLOT, 1), axis(32, ABS.MT_POSITION_X, 700), syn(32),
    axis(48, ABS.MT_SLOT, 0), axis(48, ABS.MT_TRACKING_ID, -1), axis(48, ABS.MT_SLOT, 1), axis(48, ABS.MT_TRACKING_ID, -1),
    key(48, BTN.TOUCH, 0), syn(48),
]

let pinchFrames: [Frame] = [
    Frame(t: 0, events: [p(0, 1, .down, 400, 500), p(0, 2, .down, 600, 500)]),
    Frame(t: 0.016, events: [p(0.016, 1, .move, 350, 500), p(0.016, 2, .move, 650, 500)]),
    Frame(t: 0.032, events: [p(0.032, 1, .move, 300, 500), p(0.032, 2, .move, 700, 500)]),
    Frame(t: 0.048, events: [p(0.048, 1, .up, 300, 500), p(0.048, 2, .up, 700, 500)]),
]

/// Writes `bytes` to `fd` in the given chunk sizes, pausing between chunks (mid-record), then closes.
func writeInPieces(_ fd: Int32, _ bytes: [UInt8], chunks: [Int], pause: useconds_t = 20_000) {
    var offset = 0
    var sizes = chunks
    while offset < bytes.count {
        let n = min(sizes.isEmpty ? bytes.count - offset : sizes.removeFirst(), bytes.count - offset)
        let written = bytes[offset..<offset + n].withUnsafeBytes { write(fd, $0.baseAddress!, n) }
        precondition(written == n)
        offset += n
        usleep(pause)
    }
    close(fd)
}

/// Each wait for input is bounded where a regression would make it wait for ever (a frame held
/// back until more input came): such a wait returns `.timeout` after 30 s and the test fails.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveTests {
    @Test func fifoWithAWriterPausingMidRecord() throws {
        let dir = TempDir()
        let fifo = dir.path("events.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = rawBytes(pinchEvents)
        // The device opens the FIFO first (non-blocking); the writer's open then completes.
        let device = try LiveDevice(path: fifo)
        #expect(device.reader.isEvdevNode == false)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            // 10 bytes, then the rest of the first record, then 1.5 records, then the rest.
            writeInPieces(fd, bytes, chunks: [10, 14, 36, 100])
        }
        writer.start()
        var frames: [Frame] = []
        let reason = try device.run { frames.append($0) }
        #expect(frames == pinchFrames)
        #expect(reason == "end of input")
        #expect(device.endReason == "end of input")
        device.close()
    }

    @Test func pipeDeliversEachFrameAtItsSynReportAndStops() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        let device = LiveDevice(reader: reader)
        let firstFrameRead = DispatchSemaphore(value: 0)
        let bytes = rawBytes(pinchEvents)
        let firstFrameBytes = 10 * InputEventRecord.rawSize
        let sharedDevice = Box(device)
        let writer = Thread { [fds] in
            // Only the first frame, split mid-record; the rest waits until the reader has the frame,
            // which proves delivery does not wait for more input.
            bytes[0..<firstFrameBytes].withUnsafeBytes { _ = write(fds[1], $0.baseAddress!, 30) }
            usleep(10_000)
            bytes[30..<firstFrameBytes].withUnsafeBytes { _ = write(fds[1], $0.baseAddress!, firstFrameBytes - 30) }
            firstFrameRead.wait()
            sharedDevice.value.stop()
        }
        writer.start()
        #expect(try device.nextFrame(timeout: 30) == .frame(pinchFrames[0]))
        firstFrameRead.signal()
        // Stopped with two fingers down: they are cancelled, then input ends.
        #expect(try device.nextFrame(timeout: 30) == .frame(Frame(t: 0, events: [p(0, 1, .cancel, 400, 500), p(0, 2, .cancel, 600, 500)])))
        #expect(try device.nextFrame(timeout: 30) == .end("stopped"))
        #expect(try device.nextFrame() == nil)
        device.close()
        close(fds[1])
    }

    @Test func stopFileDescriptorWakesThePoll() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        var byte: UInt8 = 1
        #expect(write(reader.stopFileDescriptor, &byte, 1) == 1)  // what a signal handler does
        #expect(try reader.next(timeout: 30) == .end("stopped"))
        reader.close()
        close(fds[1])
    }

    @Test func idlePipeTimesOut() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let device = LiveDevice(reader: try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true))
        #expect(try device.nextFrame(timeout: 0) == .timeout)
        close(fds[1])
        #expect(try device.nextFrame(timeout: 30) == .end("end of input"))
        device.close()
    }

    @Test func writerClosingMidRecordEndsCleanly() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        let bytes = rawBytes(Array(pinchEvents.prefix(10))) + [1, 2, 3]
        bytes.withUnsafeBytes { _ = write(fds[1], $0.baseAddress!, bytes.count) }
        close(fds[1])
        let device = LiveDevice(reader: try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true))
        var frames: [Frame] = []
        let reason = try device.run { frames.append($0) }
        #expect(frames.map { $0.events.map(\.phase) } == [[.down, .down], [.cancel, .cancel]])
        #expect(reason == "end of input (3 bytes of an incomplete event dropped)")
    }

    @Test func pathsThatAreNotInputDevices() throws {
        let dir = TempDir()
        let file = dir.write("notes.txt", "hello")
        #expect(throws: InputError(file: file, "not an input device: a regular file (use --events to replay a recording)")) {
            _ = try LiveDevice(path: file)
        }
        #expect(throws: InputError(file: dir.url.path, "not an input device: a directory")) { _ = try LiveDevice(path: dir.url.path) }
        #expect(throws: InputError(file: "/dev/null", "not an input device: EVIOCGNAME failed (Inappropriate ioctl for device)")) {
            _ = try LiveDevice(path: "/dev/null")
        }
        let missing = dir.path("event99")
        #expect(throws: InputError(file: missing, "no such device (see 'motionscript devices' for the input devices)")) {
            _ = try LiveDevice(path: missing)
        }
    }

    @Test func permissionDeniedSaysWhatToDo() {
        #expect(LiveEventReader.openMessage(EACCES, path: "/dev/input/event3")
            == "permission denied: add your user to the group 'input' (sudo usermod -aG input $USER, then log in again) or run with sudo")
    }

    @Test func ioctlNumbersMatchTheSpec() {
        #expect(EvdevIoctl.grab == 0x40044590)
        #expect(EvdevIoctl.getAbs(0) == 0x80184540)
        #expect(EvdevIoctl.getAbs(ABS.MT_POSITION_X) == 0x80184575)
        #expect(EvdevIoctl.getName(256) == 0x81004506)
        #expect(EvdevIoctl.getBit(EV.ABS, 64) == 0x80404523)
        #expect(EvdevIoctl.getProp(4) == 0x80044509)
        #expect(EvdevIoctl.setClockID == 0x400445a0)
    }
}

@Suite(.timeLimit(.minutes(5))) struct PinchEquivalenceTests {
    /// The same two-finger pinch as protocol B records and as JSON Lines gives the same pointer
    /// events, so every recognizer (and the scale, 400/200 = 2) agrees between the formats.
    @Test func protocolBAndJSONLinesAgree() throws {
        let dir = TempDir()
        let raw = try openEventFile(path: dir.write("pinch.raw", bytes: rawBytes(pinchEvents))).readAll()
        var lines = ""
        for frame in pinchFrames {
            for e in frame.events { lines += "{\"t\":\(e.t),\"id\":\(e.id),\"phase\":\"\(e.phase.rawValue)\",\"x\":\(e.x),\"y\":\(e.y)}\n" }
        }
        let json = try openEventFile(path: dir.write("pinch.jsonl", lines)).readAll()
        #expect(raw == pinchFrames)
        #expect(json == raw)
        func span(_ f: Frame) -> Double { Swift.abs(f.events[1].x - f.events[0].x) }
        #expect(span(raw[2]) / span(raw[0]) == 2)
        #expect(span(json[2]) / span(json[0]) == 2)
    }
}

@Suite(.timeLimit(.minutes(5))) struct SignalTests {
    @Test func surfaceOption() {
        #expect(EventFileOptions.parseSurface("1920x1080") == Surface(width: 1920, height: 1080))
        #expect(EventFileOptions.parseSurface("1920X1080") == Surface(width: 1920, height: 1080))
        #expect(EventFileOptions.parseSurface("0x10") == nil)
        #expect(EventFileOptions.parseSurface("wide") == nil)
    }
}
