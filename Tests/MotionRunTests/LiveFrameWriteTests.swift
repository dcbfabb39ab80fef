import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Live output is written frame by frame: every line of a frame leaves in one write, as soon as
/// the frame's work is done, not a write per line.
@Suite(.timeLimit(.minutes(5))) struct LiveFrameWriteTests {
    /// Write system calls the process made so far (`syscw` in /proc/PID/io).
    private func writeCalls(_ pid: Int32) -> Int? {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("syscw:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Reads from `pipe` until `lines` newlines came or 30 s passed (a hang guard, not a timing).
    private func read(_ pipe: Pipe, lines: Int) -> Data {
        var received = Data()
        let deadline = Date().addingTimeInterval(30)
        var fds = [pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while received.filter({ $0 == 10 }).count < lines, Date() < deadline {
            guard poll(&fds, 1, 100) > 0 else { continue }
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        return received
    }

    @Test func theLinesOfALiveFrameLeaveInOneWrite() throws {
        let folder = makeTemporaryFolder("live-frame-writes")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        writeFile("""
            motion.pointers():subscribe(function(p)
              motion.emit("a", p.x); motion.emit("b", p.x); motion.emit("c", p.x)
            end)
            """, "three.lua", in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: motionscriptBinary)
        process.arguments = ["run", "three.lua", "--device", fifo]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = open(fifo, O_WRONLY | O_CLOEXEC)
        #expect(fd >= 0)
        // A finger down, then 39 moves: 40 frames of three lines each.
        var bytes = inputEvent(usec: 0, 3, 0x2f, 0) + inputEvent(usec: 0, 3, 0x39, 1) + inputEvent(usec: 0, 3, 0x36, 5)
        for i in 0..<40 {
            bytes += inputEvent(usec: i * 1000, 3, 0x35, Int32(100 + i)) + inputEvent(usec: i * 1000, 0, 0, 0)
        }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // Read until the 120 lines are there, then count the writes.
        let received = read(out, lines: 120)
        let writes = writeCalls(process.processIdentifier)
        close(fd)
        process.waitUntilExit()
        #expect(received.filter { $0 == 10 }.count == 120)
        #expect(String(decoding: received, as: UTF8.self).hasPrefix(#"{"t":0,"name":"a","value":100}"#))
        // One write per frame, and a few for the start: a write per line would be 120 or more.
        let count = try #require(writes)
        #expect(count >= 40 && count < 60, "\(count) write calls for 40 frames of 3 lines")
    }

    @Test(arguments: [false, true])
    func theSetupsLinesLeaveBeforeAnyInput(watch: Bool) throws {
        let folder = makeTemporaryFolder("live-setup-line")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        writeFile("motion.emit(\"ready\", 1)\n", "ready.lua", in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: motionscriptBinary)
        process.arguments = ["run", "ready.lua", "--device", fifo] + (watch ? ["--watch"] : [])
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = open(fifo, O_WRONLY | O_CLOEXEC)  // a device that sends nothing yet
        let received = read(out, lines: 1)
        close(fd)
        process.terminate()
        process.waitUntilExit()
        #expect(String(decoding: received, as: UTF8.self).contains(#"{"t":0,"name":"ready","value":1}"#))
    }
}
