import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionLua
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Live input runs all day: a callback that raises is reported with its traceback and switched
/// off (its subscription unsubscribed), and the rest of the pipeline goes on. Files stay strict.
@Suite(.timeLimit(.minutes(5))) struct LiveCallbackErrorTests {
    static let script = """
        motion.pointers():subscribe(function(p)
          if p.x >= 120 then error("too far right: " .. p.x) end
          motion.emit("fragile", p.x)
        end)
        motion.pointers():map(function(p) return p.x end):emit("x")
        """

    /// A finger at x 100 moving to 110, 120, 130, then lifting (protocol B raw records).
    static var events: [UInt8] {
        var bytes = [UInt8]()
        bytes += inputEvent(usec: 0, 3, 0x2f, 0) + inputEvent(usec: 0, 3, 0x39, 7) + inputEvent(usec: 0, 3, 0x35, 100) + inputEvent(usec: 0, 3, 0x36, 100)
        bytes += inputEvent(usec: 0, 0, 0, 0)
        for (i, x) in [110, 120, 130].enumerated() {
            let usec = 16000 * (i + 1)
            bytes += inputEvent(usec: usec, 3, 0x35, Int32(x)) + inputEvent(usec: usec, 0, 0, 0)
        }
        bytes += inputEvent(usec: 64000, 3, 0x39, -1) + inputEvent(usec: 64000, 0, 0, 0)
        return bytes
    }

    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cberr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func liveRunReportsTheErrorUnsubscribesAndGoesOn() throws {
        let dir = try folder()
        let fifo = dir.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = dir.appendingPathComponent("fragile.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let bytes = Self.events
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let output = CollectedOutput()
        var options = RunOptions(scriptPath: script.path)
        options.devices = [fifo]
        var diagnostics: [String] = []
        let result = try Runner.runLiveSession(options, output: output) { diagnostics.append($0) }
        #expect(result == Runner.LiveResult(reason: "end of input", callbackErrors: 1))
        #expect(output.lines == [
            #"{"t":0,"name":"fragile","value":100}"#, #"{"t":0,"name":"x","value":100}"#,
            #"{"t":0.016,"name":"fragile","value":110}"#, #"{"t":0.016,"name":"x","value":110}"#,
            #"{"t":0.032,"name":"x","value":120}"#,
            #"{"t":0.048,"name":"x","value":130}"#,
            #"{"t":0.064,"name":"x","value":130}"#,
        ])
        #expect(diagnostics.count == 2)
        // With the input time it failed at (live input has no file line to name).
        #expect(diagnostics.first?.hasPrefix("error: \(script.path):2: too far right: 120.0 at t=0.032\nstack traceback") == true, "\(diagnostics)")
        #expect(diagnostics.first?.contains("stack traceback") == true)
        #expect(diagnostics.last == "-- that callback is switched off (its subscription unsubscribed); the run goes on --")
    }

    @Test func aFileRunStillStopsAtTheFirstError() throws {
        let dir = try folder()
        let script = dir.appendingPathComponent("fragile.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let raw = dir.appendingPathComponent("events.raw")
        try Data(Self.events).write(to: raw)
        let output = CollectedOutput()
        #expect(throws: ScriptError.self) {
            try Runner.run(RunOptions(scriptPath: script.path, eventsPath: raw.path), output: output)
        }
        #expect(output.lines.count == 4)
    }
}
