import Foundation
import Testing
@testable import MotionDaemon
import MotionHost

/// What the daemon's live loop does per frame when nothing changed: no wake-up of the output
/// thread, no read of the config watcher outside the input hub's wait.
@Suite struct LiveCostTests {
    @Test func flushingWithNothingQueuedDoesNotWakeTheWriterThread() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
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
}
