import CLua
import Foundation
import Testing
import MotionDaemon
import MotionGestures
import MotionPluginHost
@testable import MotionLua

/// Under the daemon's watchdog a plugin's state is watched: its calls run with no Lua hook (at
/// full speed) and the watchdog's signal stops a call at its limit — a loop, under `pcall`, in a
/// coroutine, in a finalizer — disabling only that plugin. Each loop would end by itself after
/// 5 s of CPU and emit "survived": stopped, it never does.
@Suite struct WatchedPluginTests {
    @Test(arguments: [
        "local t = os.clock() repeat until os.clock() - t > 5",
        "local t = os.clock() repeat pcall(function() local u = os.clock() repeat until os.clock() - u > 1 end) until os.clock() - t > 5",
        "local t = os.clock() coroutine.wrap(function() repeat until os.clock() - t > 5 end)()",
        // The finalizer runs once the callback has returned: "survived" is its own line.
        "setmetatable({}, {__gc = function() local t = os.clock() repeat until os.clock() - t > 5 motion.emit('survived', true) end}) collectgarbage() do return end",
    ])
    func aLoopPastItsLimitIsStoppedByTheWatchdogAndDisablesOnlyItsPlugin(_ loop: String) throws {
        let bad = """
            -- motionscript: timeout=0.05
            motion.pointers():subscribe(function(p)
              if p.phase == "up" then \(loop) motion.emit("survived", true) end
            end)
            """
        let config = TestConfig(["good.lua": echoPlugin, "bad.lua": bad])
        let (host, _) = config.host()
        // A grace far longer than the test: the process is never ended, only the state stopped.
        host.watchdog = Watchdog(grace: 600, record: nil)
        host.loadAll()
        let good = try #require(host.plugin(named: "good")?.runtime)
        #expect(good.isWatched)
        #expect(host.plugin(named: "bad")?.runtime?.isWatched == true)
        let start = Date()
        host.run(taps(3))
        #expect(Date().timeIntervalSince(start) < 4)
        // Between calls a watched state has no hook either (none was set for its limit).
        #expect(lua_gethook(good.mainState) == nil)
        let lines = host.lines(of: "bad")
        #expect(!lines.contains { $0.contains("survived") }, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"t":0.05,"plugin":"bad","status":"disabled","version":1,"#) == true, "\(lines)")
        #expect(lines.last?.contains("timeout") == true, "\(lines)")
        #expect(host.lines(of: "good").count == 1 + 2 * 3)
    }

    /// Without a watchdog (a host nobody watches) the count hook keeps the time limit.
    @Test func withoutAWatchdogThePluginsStateKeepsTheCountHook() throws {
        let config = TestConfig(["good.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        host.run(taps(1))
        let good = try #require(host.plugin(named: "good")?.runtime)
        #expect(!good.isWatched)
        #expect(lua_gethook(good.mainState) != nil)
    }
}
