import MotionTestSupport
import Foundation
import Testing
@testable import MotionDaemon
import MotionGestures
@testable import MotionPluginHost
import MotionInput

@Suite(.timeLimit(.minutes(5))) struct HangAndOutputTests {
    @Test func aPluginRecordedAsHangingStaysDisabledUntilItsFileChanges() throws {
        let config = TestConfig(["good.lua": echoPlugin, "h.lua": echoPlugin])
        let record = HangRecord(path: config.path + "/state/motionscript/hung-plugin")
        // What the watchdog writes before it ends the process.
        record.write(HangRecord.identity(of: config.file("h.lua")))
        #expect(record.isCulprit(config.file("h.lua")) && !record.isCulprit(config.file("good.lua")))
        let (host, _) = config.host()
        host.hangRecord = record
        host.loadAll()
        #expect(host.status().map(\.state) == [.running, .disabled])
        #expect(host.lines(of: "h") == [#"{"t":0,"plugin":"h","status":"disabled","version":0,"error":"\#(config.file("h.lua")): hung the daemon at its last run (blocked in a C function past its time limit); not loaded until the file changes"}"#])
        config.write("h.lua", echoPlugin + "\n-- fixed")
        host.filesChanged([config.file("h.lua")])
        #expect(host.status().map(\.state) == [.running, .running])
        #expect(host.lines(of: "h").last == #"{"t":0,"plugin":"h","status":"loaded","version":1}"#)
    }

    @Test func aReaderThatStopsReadingLosesLinesNotThePlugins() throws {
        // A reader that stopped: the pipe is full before the writer starts, so its thread blocks
        // in its first write.
        let filler = Array("{\"fill\":1}\n".utf8)
        let pipe = try #require(fullPipe(of: filler))
        let fds = [pipe.read, pipe.write], fillerLines = pipe.lines
        defer { close(fds[0]) }
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]), capacity: 1000)
        let line = Array(#"{"t":1.5,"plugin":"a","name":"x","value":1}"#.utf8) + [10]
        // The first line is taken by the thread, which then blocks on the full pipe. Waiting
        // for that (an event, not a time: under load the thread could otherwise first run
        // after the buffer filled, take all of it and make room for lines meant to be dropped).
        line.withUnsafeBufferPointer { writer.append($0) }
        let deadline = Clock.monotonic() + 30
        while writer.batchesTaken == 0 && Clock.monotonic() < deadline { usleep(200) }
        #expect(writer.batchesTaken == 1)
        // Appending never waits: once the buffer is full, lines are dropped.
        var appended = 1
        while writer.droppedTotal == 0 && appended < 100_000 {
            line.withUnsafeBufferPointer { writer.append($0) }
            appended += 1
        }
        // The one line held by the thread, the 22 lines of 45 bytes that fit in 1000, one dropped.
        #expect(appended == 1 + 1000 / line.count + 1)
        for _ in 0..<9 { line.withUnsafeBufferPointer { writer.append($0) } }
        #expect(writer.batchesTaken == 1)
        let dropped = writer.droppedTotal
        #expect(dropped == 10)
        // The reader comes back: everything queued arrives, then a note of what was missed.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let queued = fillerLines * filler.count + (appended + 9 - dropped) * line.count
        while received.count < queued {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        line.withUnsafeBufferPointer { writer.append($0) }
        writer.close()
        close(fds[1])
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasSuffix("{\"t\":1.5,\"dropped\":10}\n" + String(decoding: line, as: UTF8.self)))
        // The filler, the lines kept, the note and the last line.
        #expect(text.split(separator: "\n").count == fillerLines + (appended + 9 - dropped) + 2)
    }

    /// Output that cannot be written (here a descriptor open for reading: every write fails) is
    /// the process's, not a plugin's: the host stops before the next frame, no plugin is
    /// interrupted, failed or blamed. Before, the daemon's output failure interrupted whatever
    /// Lua code ran (process-wide), and a host without that wiring replayed on to the end.
    @Test func outputThatCannotBeWrittenStopsTheHostAndBlamesNoPlugin() throws {
        let config = TestConfig(["a.lua": echoPlugin, "b.lua": echoPlugin])
        let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(readOnly) }
        let router = OutputRouter(.sink(LineSink(fileDescriptor: readOnly)))
        let diagnostics = Diagnostics()
        router.diagnostics = { diagnostics.lines.append($0) }
        let host = PluginHost(folder: try ConfigFolder(config.path), options: RunOptions(scriptPath: ""), router: router,
                              defaults: PluginLimits(timeout: 0.2, memoryMiB: 16))
        try HostLoop.replay(Frames(taps(3)), host: host)
        #expect(router.failure != nil)
        // The first lifecycle line failed: no frame was handed to a plugin after it.
        #expect(host.time == 0)
        #expect(host.status().map(\.state) == [.running, .running])
        #expect(host.status().map(\.errors) == [0, 0])
        #expect(host.stopReason == "the output cannot be written (Bad file descriptor); stopped")
        #expect(diagnostics.lines.isEmpty, "\(diagnostics.lines)")
    }

    /// At the end of a live daemon, the lines still queued for a reader that stopped reading are
    /// given up after a bound: the daemon's exit never waits on it.
    @Test func closingNeverWaitsForAReaderThatStopped() throws {
        let filler = Array("{\"fill\":1}\n".utf8)
        let pipe = try #require(fullPipe(of: filler))
        let fds = [pipe.read, pipe.write], filled = pipe.lines * filler.count
        defer { close(fds[0]); close(fds[1]) }
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]), capacity: 1000)
        let line = Array(#"{"t":1,"plugin":"a","name":"x","value":1}"#.utf8) + [10]
        line.withUnsafeBufferPointer { writer.append($0) }
        writer.close(waitingAtMost: 0.05)
        // Returned: the line is still queued or blocked in the writer's write, never read.
        #expect(writer.failure == nil)
        // The reader comes back (closing it under a blocked write would raise SIGPIPE here).
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received < filled + line.count {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += n
        }
        #expect(received == filled + line.count)
        writer.close()
    }
}

/// Frames from memory.
final class Frames: FrameSource {
    private var frames: [Frame]
    init(_ frames: [Frame]) { self.frames = frames.reversed() }
    func nextFrame() throws -> Frame? { frames.popLast() }
}
