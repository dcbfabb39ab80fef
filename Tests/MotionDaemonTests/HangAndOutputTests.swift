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
        let writer = BoundedWriter(sink: LineSink(fileDescriptor: fds[1]), capacity: 1000)
        let line = Array(#"{"t":1.5,"plugin":"a","name":"x","value":1}"#.utf8) + [10]
        // Nobody reads: the pipe (64 KiB) fills, then the buffer; appending never waits.
        var appended = 0
        while writer.droppedTotal == 0 && appended < 1_000_000 {
            line.withUnsafeBufferPointer { writer.append($0) }
            appended += 1
        }
        #expect(writer.droppedTotal > 0)
        for _ in 0..<9 { line.withUnsafeBufferPointer { writer.append($0) } }
        let dropped = writer.droppedTotal
        #expect(dropped >= 10)
        // The reader comes back: everything queued arrives, then a note of what was missed.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let expectedBefore = (appended - 1 - (dropped - 10)) * line.count  // lines that were queued or written
        while received.count < expectedBefore {
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
        #expect(text.hasSuffix("{\"t\":1.5,\"dropped\":\(dropped)}\n" + String(decoding: line, as: UTF8.self)))
        #expect(text.split(separator: "\n").count == appended + 10 - dropped + 1)  // the lines kept and the note
    }
}
