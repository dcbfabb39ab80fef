import Foundation
import Testing
@testable import MotionDaemon
import MotionHost

@Suite struct HangAndOutputTests {
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
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // A reader that stopped: the pipe is full before the writer starts, so its thread blocks
        // in its first write.
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let filler = Array("{\"fill\":1}\n".utf8)
        var fillerLines = 0
        while filler.withUnsafeBytes({ write(fds[1], $0.baseAddress, $0.count) }) == filler.count { fillerLines += 1 }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) & ~O_NONBLOCK)
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]), capacity: 1000)
        let line = Array(#"{"t":1.5,"plugin":"a","name":"x","value":1}"#.utf8) + [10]
        // Appending never waits: once the buffer is full, lines are dropped.
        var appended = 0
        while writer.droppedTotal == 0 && appended < 100_000 {
            line.withUnsafeBufferPointer { writer.append($0) }
            appended += 1
        }
        #expect(appended < 100)
        for _ in 0..<9 { line.withUnsafeBufferPointer { writer.append($0) } }
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
}
