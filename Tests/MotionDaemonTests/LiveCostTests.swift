import MotionTestSupport
import Foundation
import Testing
@testable import MotionDaemon
@testable import MotionPluginHost
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon's live loop does per frame when nothing changed: no wake-up of the output
/// thread, no read of the config watcher outside the input hub's wait.
@Suite(.timeLimit(.minutes(5))) struct LiveCostTests {
    @Test func flushingWithNothingQueuedDoesNotWakeTheWriterThread() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[0]) }
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]))
        // The live loop flushes after every frame; most frames print nothing.
        for _ in 0..<1000 { writer.flush() }
        #expect(writer.wakeUps == 0)
        let line = Array(#"{"t":1,"plugin":"a","name":"x","value":1}"#.utf8) + [10]
        line.withUnsafeBufferPointer { writer.append($0) }
        #expect(writer.wakeUps == 1)
        writer.close()
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        #expect(read(fds[0], &buffer, buffer.count) == line.count)
    }

    @Test func takingAChangedBatchDoesNotReadTheWatcher() throws {
        let config = TestConfig(["a.lua": "-- a"])
        let watcher = try ConfigWatcher(folder: try ConfigFolder(config.path), quiet: 0.05)
        config.write("a.lua", "-- a, edited")
        // The change is in inotify, not read yet: taking finds nothing (no read per frame) ...
        #expect(watcher.take(now: 100) == nil)
        // ... until the hub's wait says the descriptor is readable and it is read.
        watcher.read(now: 100)
        #expect(watcher.take(now: 100.01) == nil)
        #expect(watcher.take(now: 100.06)?.contains(config.file("a.lua")) == true)
        #expect(watcher.take(now: 100.2) == nil)
    }

    /// The loop reads the host clock only while a config change waits for its quiet time: a
    /// clock read is a system call where the clock source has no vDSO (a VM on HPET), and the
    /// loop read it twice per frame.
    @Test func theLiveLoopReadsNoClockPerFrameWhileTheFolderIsQuiet() throws {
        let config = TestConfig(["a.lua": #"motion.pointers():subscribe(function(p) motion.emit("a", p.phase) end)"#])
        let devices = TestConfig()
        let fifo = devices.path + "/touch"
        #expect(mkfifo(fifo, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(fifo)])
        defer { set.close() }
        // 20 frames: a down, 18 moves, a lift; all written before the loop starts, then EOF.
        var bytes: [UInt8] = []
        func event(_ usec: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) {
            withUnsafeBytes(of: Int64(10).littleEndian) { bytes += $0 }
            withUnsafeBytes(of: Int64(usec).littleEndian) { bytes += $0 }
            withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        event(0, 3, 0x2f, 0); event(0, 3, 0x39, 1); event(0, 3, 0x35, 100); event(0, 3, 0x36, 100); event(0, 0, 0, 0)
        for i in 1...18 { event(i * 8000, 3, 0x35, Int32(100 + 10 * i)); event(i * 8000, 0, 0, 0) }
        event(19 * 8000, 3, 0x39, -1); event(19 * 8000, 0, 0, 0)
        let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)  // the set reads it already
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
        let (host, _) = config.host()
        let watcher = try ConfigWatcher(folder: host.folder)
        var reads = 0
        #expect(try HostLoop.runLive(set, host: host, watcher: watcher, clock: { reads += 1; return 1000 }) == "end of input")
        #expect(host.lines(of: "a").count == 21)  // its loaded line and 20 pointer changes
        #expect(reads == 0)
    }
}
