import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `run --device`: the live path, driven through a FIFO of raw input_event records.
@Suite(.timeLimit(.minutes(5))) struct LiveRunTests {
    @Test func scriptRunsOnAFIFOFrameByFrameAndEndsWithTheWriter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = folder.appendingPathComponent("drag.lua")
        try """
            local box = motion.property({x = 0, y = 0})
            motion.gesture(motion.pan{threshold = 0}):translation(box):subscribe(box)
            box:emit("box")
            """.write(to: script, atomically: true, encoding: .utf8)

        // Protocol B: slot 0 goes down at (100,100), moves twice by 10 in x, lifts.
        var bytes = [UInt8]()
        bytes += inputEvent(usec: 0, 3, 0x2f, 0) + inputEvent(usec: 0, 3, 0x39, 7) + inputEvent(usec: 0, 3, 0x35, 100) + inputEvent(usec: 0, 3, 0x36, 100)
        bytes += inputEvent(usec: 0, 0, 0, 0)
        bytes += inputEvent(usec: 16000, 3, 0x35, 110) + inputEvent(usec: 16000, 0, 0, 0)
        bytes += inputEvent(usec: 32000, 3, 0x35, 120) + inputEvent(usec: 32000, 0, 0, 0)
        bytes += inputEvent(usec: 48000, 3, 0x39, -1) + inputEvent(usec: 48000, 0, 0, 0)
        let writer = Thread { [bytes] in
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            // Pause in the middle of a record: the reader must reassemble it.
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, 30) }
            usleep(20_000)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + 30, bytes.count - 30) }
            close(fd)
        }
        writer.start()
        let output = CollectedOutput()
        var options = RunOptions(scriptPath: script.path)
        options.devices = [fifo]
        let reason = try Runner.runLiveSession(options, output: output).reason
        #expect(reason == "end of input")
        #expect(output.lines == [
            #"{"t":0,"name":"box","value":{"x":0,"y":0}}"#,
            #"{"t":0.016,"name":"box","value":{"x":10,"y":0}}"#,
            #"{"t":0.032,"name":"box","value":{"x":20,"y":0}}"#,
        ])
    }
}
