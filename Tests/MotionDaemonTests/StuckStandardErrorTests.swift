import MotionTestSupport
import Foundation
import Testing
@testable import MotionDaemon
@testable import MotionPluginHost

/// A live daemon's stderr is a queue written by a thread of its own: a reader that stopped
/// reading (a full pipe) loses diagnostic lines, counted, never the plugins' frames.
@Suite(.timeLimit(.minutes(5))) struct StuckStandardErrorTests {
    /// Before, a plugin's `print` and `io.stderr:write` went through Lua's C stdio to descriptor
    /// 2 and blocked the whole daemon once a pipe nobody read was full (the lines never reached
    /// the host's stderr path: the drop count below was 0).
    @Test func aStderrNobodyReadsDropsLinesAndEveryFrameIsHandled() throws {
        // The reader stopped: the pipe is full before the writer starts.
        let filler = Array("fill\n".utf8)
        let pipe = try #require(fullPipe(of: filler))
        let fds = [pipe.read, pipe.write], filled = pipe.lines * filler.count
        defer { close(fds[0]) }
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]), capacity: 4096, notice: BoundedWriter.diagnosticNotice)
        // The writer's thread takes this line and blocks on the full pipe (waited for as an
        // event, so what is queued after it is exactly what fits in 4096 bytes).
        writer.append("start\n")
        let deadline = Clock.monotonic() + 30
        while writer.batchesTaken == 0 && Clock.monotonic() < deadline { usleep(200) }
        #expect(writer.batchesTaken == 1)

        let config = TestConfig(["loud.lua": """
            motion.pointers():subscribe(function(p)
              print("frame", p.phase)
              io.stderr:write("raw ", 1.5, "\\n")
              motion.emit("p", p.phase)
            end)
            """])
        let (host, _) = config.host()
        host.router.diagnostics = { writer.append($0 + "\n") }
        host.router.standardError = { writer.append($0) }
        host.loadAll()
        host.run(taps(500))
        // Every frame reached the plugin: its lifecycle line and one line per pointer event.
        #expect(host.lines(of: "loud").count == 1 + 1000)
        #expect(host.status().map(\.errors) == [0])
        // 2,000 writes (48 bytes a tap); the 340 that fit in 4096 bytes (4080) are kept, the
        // rest dropped: once one is dropped, nothing fits with the note in front of it.
        let chunks = ["loud: frame\tdown\n", "raw 1.5\n", "loud: frame\tup\n", "raw 1.5\n"]
        var kept = 0, bytes = 0
        while bytes + chunks[kept % 4].utf8.count <= 4096 { bytes += chunks[kept % 4].utf8.count; kept += 1 }
        #expect(kept == 340)
        #expect(writer.droppedTotal == 2000 - kept)

        // The reader comes back: the kept lines arrive, then the count before the next line.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < filled + 6 + bytes {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        host.router.diagnostic(nil, "end")
        writer.close()
        close(fds[1])
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received[filled...], as: UTF8.self)
        let keptText = (0..<kept).map { chunks[$0 % 4] }.joined()
        #expect(text == "start\n" + keptText + "motionscript: 1660 diagnostic lines dropped: stderr was not being read\nmotionscript: end\n")
    }
}
