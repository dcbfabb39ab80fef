import Foundation
import Testing
import MotionHost
#if canImport(Glibc)
import Glibc
#endif

/// `run --device`: the live path, driven through a FIFO of raw input_event records.
@Suite struct LiveRunTests {
    /// 24-byte struct input_event records.
    private func record(_ usec: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var bytes = [UInt8]()
        withUnsafeBytes(of: Int64(0).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: Int64(usec).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

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
        bytes += record(0, 3, 0x2f, 0) + record(0, 3, 0x39, 7) + record(0, 3, 0x35, 100) + record(0, 3, 0x36, 100)
        bytes += record(0, 0, 0, 0)
        bytes += record(16000, 3, 0x35, 110) + record(16000, 0, 0, 0)
        bytes += record(32000, 3, 0x35, 120) + record(32000, 0, 0, 0)
        bytes += record(48000, 3, 0x39, -1) + record(48000, 0, 0, 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            // Pause in the middle of a record: the reader must reassemble it.
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, 30) }
            usleep(20_000)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + 30, bytes.count - 30) }
            close(fd)
        }
        writer.start()
        let output = CollectedOutput()
        var options = RunOptions(scriptPath: script.path)
        options.devicePath = fifo
        let reason = try Runner.runLive(options, output: output)
        #expect(reason == "end of input")
        #expect(output.lines == [
            #"{"t":0,"name":"box","value":{"x":0,"y":0}}"#,
            #"{"t":0.016,"name":"box","value":{"x":10,"y":0}}"#,
            #"{"t":0.032,"name":"box","value":{"x":20,"y":0}}"#,
        ])
    }
}
