import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The same events give the same delayed lines live as from a file: at the end of live input
/// what is scheduled settles exactly as at the end of a file.
@Suite(.timeLimit(.minutes(5))) struct LiveSettleTests {
    @Test func delayedLinesAreTheSameLiveAndFromAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("delayed.lua")
        try """
            motion.pointers():delay(0.5):map(function(p) return p.phase .. " " .. p.x end):emit("delayed")
            """.write(to: script, atomically: true, encoding: .utf8)
        // A finger goes down, moves 10 times and stays down: 12 delayed lines with the cancel.
        var bytes = [UInt8]()
        bytes += inputEvent(sec: 5, usec: 0, 3, 0x2f, 0) + inputEvent(sec: 5, usec: 0, 3, 0x39, 1)
        bytes += inputEvent(sec: 5, usec: 0, 3, 0x35, 0) + inputEvent(sec: 5, usec: 0, 3, 0x36, 0) + inputEvent(sec: 5, usec: 0, 0, 0, 0)
        for i in 1...10 {
            bytes += inputEvent(sec: 5, usec: i * 10_000, 3, 0x35, Int32(i)) + inputEvent(sec: 5, usec: i * 10_000, 0, 0, 0)
        }
        let raw = folder.appendingPathComponent("events.raw")
        try Data(bytes).write(to: raw)
        let fromFile = CollectedOutput()
        try Runner.run(RunOptions(scriptPath: script.path, eventsPath: raw.path), output: fromFile)

        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let payload = bytes
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            _ = payload.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let live = CollectedOutput()
        var options = RunOptions(scriptPath: script.path)
        options.devices = [fifo]
        #expect(try Runner.runLiveSession(options, output: live).reason == "end of input")
        #expect(fromFile.lines.count == 12)
        #expect(fromFile.lines.last == #"{"t":0.6,"name":"delayed","value":"cancel 10.0"}"#)
        #expect(live.lines == fromFile.lines)
    }
}
