import MotionTestSupport
import Testing
import Foundation
import MotionGestures
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// fcntl's F_SETPIPE_SZ (Linux; glibc declares it only under _GNU_SOURCE).
private let setPipeSize: Int32 = 1031

/// While the host is busy between frames (a long callback, a reload), the device set's drain
/// (`InputDrain`) reads the devices into bounded backlogs, so the kernel's small buffer never
/// overflows; the frames then come out in order with their own timestamps. FIFOs stand in for
/// devices, made as small as the kernel allows (one page, 4,096 bytes: some 34 frames here) so
/// a writer finds out when nobody reads.
@Suite struct BusyHostTests {
    private final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString)").path
        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func fifo() -> String {
            let p = path + "/pad"
            #expect(mkfifo(p, 0o600) == 0)
            return p
        }
    }

    /// Frame `n` at n ms: finger 1 down at x 0 (n 0), at x n, or lifted (x nil); 5 or 3 events.
    private func frame(_ n: Int, lift: Bool = false) -> [UInt8] {
        var events: [InputEventRecord] = [axis(Double(n), ABS.MT_SLOT, 0)]
        if lift {
            events.append(axis(Double(n), ABS.MT_TRACKING_ID, -1))
        } else {
            if n == 0 { events.append(axis(0, ABS.MT_TRACKING_ID, 1)) }
            events += [axis(Double(n), ABS.MT_POSITION_X, Int32(n)), axis(Double(n), ABS.MT_POSITION_Y, 5)]
        }
        events.append(syn(Double(n)))
        return rawBytes(events)
    }

    /// A writer on a FIFO the set reads, its pipe one page.
    private func writer(_ path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(fd >= 0)
        #expect(fcntl(fd, setPipeSize, 4096) >= 4096)
        return fd
    }

    /// Writes all of `bytes` without blocking; the count written (short when the pipe is full).
    private func put(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { max(0, write(fd, $0.baseAddress, $0.count)) }
    }

    /// Writes all of `bytes`, waiting for room up to `seconds`; false when no room came.
    private func putWaiting(_ fd: Int32, _ bytes: [UInt8], seconds: Double) -> Bool {
        var offset = 0
        let deadline = LiveEventReader.now() + seconds
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, min(512, bytes.count - offset)) }
            if n > 0 { offset += n; continue }
            guard LiveEventReader.now() < deadline else { return false }
            var out = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&out, 1, 50)
        }
        return true
    }

    private func moves(_ set: LiveDeviceSet, count: Int) throws -> [String] {
        var out: [String] = []
        for _ in 0..<count {
            guard case .frame(let f) = try set.nextFrame(timeout: 5) else { break }
            out += f.events.map { "\($0.phase.rawValue) \(Int($0.x)) \(Int(($0.t * 1000).rounded()))" }
        }
        return out
    }

    /// 60 frames (7,200 bytes) written while the host handles frame 0: 30 fit in the pipe, the
    /// drain takes them, 30 more fit; all 60 then come out in order, each at its own time.
    @Test func framesWrittenWhileTheHostIsBusyAreDrainedAndComeOutInOrder() throws {
        let folder = Folder()
        let path = folder.fifo()
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        let w = writer(path)
        defer { close(w) }
        _ = put(w, frame(0))
        #expect(try moves(set, count: 1) == ["down 0 0"])
        // The host is busy now: what is written waits in the pipe until the drain reads it.
        let first = (1...30).flatMap { frame($0) }, second = (31...60).flatMap { frame($0) }
        #expect(put(w, first) == first.count)
        set.drain.drainNow()
        #expect(set.drain.drains >= 1)
        #expect(put(w, second) == second.count, "the pipe was not drained")
        _ = put(w, frame(61, lift: true))
        let out = try moves(set, count: 61)
        #expect(out == (1...60).map { "move \($0) \($0)" } + ["up 60 61"])
        #expect(set.drain.hasBacklog == false)
    }

    /// The drain's own thread: the test thread is the busy host, writing 200 frames (24,000
    /// bytes, six pipes full) without calling `nextFrame`; they all get in (before: the writer
    /// waited forever for room, as the kernel drops what does not fit), and come out in order.
    @Test(.timeLimit(.minutes(1))) func theDrainThreadReadsWhileTheHostIsBusy() throws {
        let folder = Folder()
        let path = folder.fifo()
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        let w = writer(path)
        defer { close(w) }
        _ = put(w, frame(0))
        #expect(try moves(set, count: 1) == ["down 0 0"])
        #expect(set.drain.isArmed)
        let busy = (1...200).flatMap { frame($0) }
        let allIn = putWaiting(w, busy, seconds: 20)
        #expect(allIn, "nothing read the device while the host was busy")
        #expect(set.drain.drainsEnded >= 1)
        #expect(try moves(set, count: 200) == (1...200).map { "move \($0) \($0)" })
    }

    /// A watched descriptor's handler is the host's work too (a control request reloading a
    /// plugin): the devices are drained while it runs. The handler writes the 200 frames itself.
    @Test(.timeLimit(.minutes(1))) func devicesAreDrainedWhileAWatchedDescriptorsHandlerRuns() throws {
        let folder = Folder()
        let path = folder.fifo()
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        let w = writer(path)
        defer { close(w) }
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var allIn: Bool?
        set.loop.register(fd: fds[0]) { [self] in
            var b: UInt8 = 0
            _ = read(fds[0], &b, 1)
            allIn = putWaiting(w, (1...200).flatMap { frame($0) }, seconds: 20)
        }
        _ = put(w, frame(0))
        #expect(try moves(set, count: 1) == ["down 0 0"])
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
        // The handler runs in this wait; then a frame or `.timeout` (the handler's work to see).
        var out: [String] = []
        if case .frame(let f) = try set.nextFrame(timeout: 5) { out.append("move \(Int(f.events[0].x))") }
        #expect(allIn == true, "nothing read the device while the handler ran")
        out += try moves(set, count: 200 - out.count).map { String($0.split(separator: " ").prefix(2).joined(separator: " ")) }
        #expect(out == (1...200).map { "move \($0)" })
    }

    /// Waiting with no time limit after work other than a frame (nothing is expected): the
    /// drain's looks stop (no wake-ups while idle); the next frame handed over, or a handler
    /// run, starts them.
    @Test func anIdleWaitStopsTheLooksAndAFrameStartsThem() throws {
        let folder = Folder()
        let path = folder.fifo()
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        let w = writer(path)
        defer { close(w) }
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        set.loop.register(fd: fds[0]) { var b: UInt8 = 0; _ = read(fds[0], &b, 1) }
        var byte: UInt8 = 1
        _ = put(w, frame(0))
        #expect(try moves(set, count: 1) == ["down 0 0"])
        #expect(set.drain.isArmed)
        // Right after a frame input usually goes on: the looks stay.
        _ = write(fds[1], &byte, 1)
        #expect(try set.nextFrame(timeout: nil) == .timeout)
        #expect(set.drain.isArmed)
        #expect(set.drain.quiesces == 0)
        // After the handler's work, an unbounded wait: they stop before it (and the handler,
        // the host's work, starts them again).
        _ = write(fds[1], &byte, 1)
        #expect(try set.nextFrame(timeout: nil) == .timeout)
        #expect(set.drain.quiesces == 1)
        _ = put(w, frame(1))
        #expect(try moves(set, count: 1) == ["move 1 1"])
        #expect(set.drain.isArmed)
    }

    /// A backlog holds 8,192 events; the rest stays in the descriptor (where the kernel's
    /// buffer would overflow) and is read after the backlog, in order.
    @Test func aFullBacklogLeavesTheRestInTheDescriptor() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[1]) }
        #expect(fcntl(fds[1], setPipeSize, 1 << 20) >= 1 << 19)
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        defer { reader.close() }
        let events = (0..<8292).map { axis(Double($0), ABS.MT_POSITION_X, Int32($0)) }
        let bytes = rawBytes(events)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress! + offset, bytes.count - offset) }
            #expect(n > 0)
            if n <= 0 { return }
            offset += n
        }
        #expect(reader.drainIntoBacklog() == .full)
        var available: Int32 = 0
        #expect(ioctl(fds[0], UInt(FIONREAD), &available) == 0)
        #expect(available == 100 * Int32(InputEventRecord.rawSize))
        var values: [Int32] = []
        for _ in events {
            guard case .event(let e) = try reader.next(timeout: 5) else { break }
            values.append(e.value)
        }
        #expect(values == (0..<8292).map { Int32($0) })
    }

    /// After SYN_DROPPED everything queued is stale, the backlog too: discarded and counted.
    @Test func discardQueuedDiscardsTheBacklog() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[1]) }
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        defer { reader.close() }
        let bytes = rawBytes([axis(0, ABS.MT_POSITION_X, 1), syn(0), axis(16, ABS.MT_POSITION_X, 2), syn(16)])
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        #expect(reader.drainIntoBacklog() == .took)
        let later = rawBytes([axis(32, ABS.MT_POSITION_X, 3), syn(32)])
        _ = later.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        let discarded = reader.discardQueued()
        #expect(discarded.events == 6)
        #expect(discarded.frames == 3)
        #expect(reader.hasBacklog == false)
    }
}
