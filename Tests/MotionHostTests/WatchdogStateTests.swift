import Foundation
import MotionHost
import MotionLua
import Testing

/// The watchdog works per stretch of one Lua state: at the limit it stops that state (its hook
/// raises once Lua code runs), and ends the process only when the stretch is still blocked in C
/// a grace period later. Its thread ends with it.
@Suite struct WatchdogStateTests {
    private func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    @Test func aWatchdogsThreadEndsWithIt() throws {
        let before = threadCount()
        do {
            var watchdogs: [Watchdog] = []
            for _ in 0..<20 { watchdogs.append(Watchdog(timeout: 30, what: "test")) }
            watchdogs[3].arm()
            #expect(threadCount() >= before + 20)
        }
        // Other suites run in parallel and start threads of their own: 20 would not vanish
        // by chance, and the count is back within that noise.
        #expect(threadCount() < before + 10)
    }

    @Test func atItsLimitTheWatchdogStopsTheStateItWatches() throws {
        let runtime = try LuaRuntime(scriptPath: writeFile("while true do pcall(function() end) end\n", "w.lua",
                                                           in: makeTemporaryFolder("watchdog")),
                                     output: CountingOutput())
        defer { runtime.close() }
        // The state's own limit is an hour away: only the watchdog can stop it in time.
        runtime.setTimeout(3600)
        let watchdog = Watchdog(timeout: 0.1, grace: 600, what: "w.lua")
        #expect(throws: ScriptError.self) {
            try watchdog.bounding(stopping: runtime.limiter) { try runtime.load() }
        }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(runtime.pendingError?.message.contains("w.lua:1: timeout") == true)
    }
}
