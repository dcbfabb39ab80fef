import Foundation
import Testing
@testable import MotionDaemon
import MotionGestures
@testable import MotionPluginHost
import MotionLua

/// How the host calls its plugins: one clock read per call (the end of one call is the start of
/// the next, so each plugin's time limit and CPU time count from its own start), the fingers
/// down tracked once for all, and the watchdog armed once per frame while each call publishes
/// its own limit.
@Suite struct PluginCallTests {
    /// A clock an hour ahead of the real one (no limit falls due), moving 0.25 s per read.
    final class SteppingClock {
        var reads = 0
        let base = Clock.monotonic() + 3600
        func read() -> Double {
            reads += 1
            return base + Double(reads) * 0.25
        }
    }

    @Test func theClockIsReadOncePerCallAndEachPluginIsChargedItsOwnCall() throws {
        let config = TestConfig(["a.lua": echoPlugin, "b.lua": echoPlugin, "c.lua": "local x = ", "d.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        let clock = SteppingClock()
        host.clock = clock.read
        let before = host.status().map(\.cpuSeconds)
        host.run(taps(5), finish: false)
        // Ten frames: one read before the first call and one after each of the three running
        // plugins (c did not load: no call, no read).
        #expect(clock.reads == 10 * 4)
        let charged = zip(host.status().map(\.cpuSeconds), before).map { $0 - $1 }
        #expect(charged == [2.5, 2.5, 0, 2.5])
    }

    @Test func aPluginAddedWhileAFingerIsDownIsHandedIt() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .down, x: 10, y: 10)]))
        host.handle(Frame(t: 1.2, events: [PointerEvent(t: 1.2, id: 1, phase: .move, x: 12, y: 10)]))
        config.write("b.lua", echoPlugin)
        host.filesChanged([config.file("b.lua")])
        host.handle(Frame(t: 1.5, events: [PointerEvent(t: 1.5, id: 1, phase: .up, x: 12, y: 10)]))
        #expect(host.lines(of: "b") == [
            #"{"t":1.2,"plugin":"b","status":"loaded","version":1}"#,
            #"{"t":1.2,"plugin":"b","name":"p","value":"down"}"#,
            #"{"t":1.5,"plugin":"b","name":"p","value":"up"}"#,
        ])
    }

    /// Armed once for a frame, the watchdog stops the plugin whose call is past its own limit,
    /// and not one whose call came before it in the frame.
    @Test func theWatchdogStopsThePluginRunningPastItsOwnLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let quiet = folder.appendingPathComponent("a.lua"), loop = folder.appendingPathComponent("b.lua")
        try "local x = 1\n".write(to: quiet, atomically: true, encoding: .utf8)
        try "while true do pcall(function() end) end\n".write(to: loop, atomically: true, encoding: .utf8)
        let router = OutputRouter(.memory)
        let a = try LuaRuntime(scriptPath: quiet.path, output: PluginOutput(name: "a", router: router))
        let b = try LuaRuntime(scriptPath: loop.path, output: PluginOutput(name: "b", router: router))
        defer { a.close(); b.close() }
        let watchdog = Watchdog(grace: 600, record: nil)
        let slotA = watchdog.add(), slotB = watchdog.add()
        watchdog.update(slotA, plugin: "a", identity: "", timeout: 3600, limiter: a.limiter)
        watchdog.update(slotB, plugin: "b", identity: "", timeout: 0.1, limiter: b.limiter)
        // The states' own limits are an hour away: only the watchdog can stop b in time.
        a.setTimeout(3600)
        b.setTimeout(3600)
        let start = Clock.monotonic()
        watchdog.setShortest(0.1)
        watchdog.enterCall(slotA, start: start, limit: start + 3600)
        try a.load()
        watchdog.leave()
        let bStart = Clock.monotonic()
        watchdog.enterCall(slotB, start: bStart, limit: bStart + 0.1)
        #expect(throws: ScriptError.self) { try b.load() }
        watchdog.leave()
        watchdog.disarm()
        #expect(b.pendingError?.kind == .timeout)
        #expect(!a.isStopped)
    }
}
