import Foundation
import Testing
import MotionDaemon
import MotionGestures

/// A plugin that goes wrong affects only itself: the others' lines are byte-identical to a
/// run without it.
@Suite struct IsolationTests {
    /// The lines `good` makes over `frames` alone.
    func alone(_ frames: [Frame]) -> [String] {
        let config = TestConfig(["good.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        host.run(frames)
        return host.lines(of: "good")
    }

    func check(bad: String, expecting status: String, error: String, frames: [Frame] = taps(3)) throws -> [String] {
        let config = TestConfig(["good.lua": echoPlugin, "bad.lua": bad])
        let (host, diagnostics) = config.host()
        host.loadAll()
        host.run(frames)
        #expect(host.lines(of: "good") == alone(frames))
        #expect(host.lines(of: "good").count == 1 + 2 * 3)
        let lifecycle = host.lines(of: "bad").filter { $0.contains(#""status":"\#(status)""#) }
        #expect(lifecycle.count == 1, "\(host.lines(of: "bad"))")
        #expect(lifecycle.first?.contains(error) == true, "\(lifecycle)")
        #expect(diagnostics.lines.contains { $0.hasPrefix("bad: ") && $0.contains(error) }, "\(diagnostics.lines)")
        #expect(host.plugin(named: "good")?.state == .running)
        return host.lines(of: "bad")
    }

    @Test func aPluginThatDoesNotLoadIsFailedAndTheOthersRun() throws {
        let lines = try check(bad: "local x = ", expecting: "failed", error: "bad.lua:1:")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(#"{"t":0,"plugin":"bad","status":"failed","version":0,"error":""#) == true)
    }

    @Test func osExitIsAnErrorThatNamesThePlugin() throws {
        _ = try check(bad: "os.exit(3)", expecting: "failed", error: "os.exit is not available to a plugin (bad)")
    }

    @Test func aLoopIsStoppedByItsTimeLimitAndDisablesThePlugin() throws {
        let bad = """
            -- motionscript: timeout=0.05
            motion.pointers():subscribe(function(p) if p.phase == "up" then while true do end end end)
            """
        let lines = try check(bad: bad, expecting: "disabled", error: "timeout")
        // Disabled at the first up (t=0.05), and nothing after.
        #expect(lines.last?.hasPrefix(#"{"t":0.05,"plugin":"bad","status":"disabled","version":1,"#) == true)
    }

    @Test func aLoopUnderPcallCannotCatchItsTimeLimit() throws {
        let bad = """
            -- motionscript: timeout=0.05
            motion.pointers():subscribe(function(p)
              if p.phase == "up" then
                for i = 1, 3 do pcall(function() while true do end end) end
                motion.emit("survived", true)
              end
            end)
            """
        let lines = try check(bad: bad, expecting: "disabled", error: "timeout")
        #expect(!lines.contains { $0.contains("survived") })
    }

    /// Finalizers run as ordinary protected calls after the callback (docs/daemon.md, "Limits"): a loop in
    /// one is stopped by the plugin's time limit like any other.
    @Test func aLoopInAFinalizerIsStoppedByItsTimeLimit() throws {
        let bad = """
            -- motionscript: timeout=0.05
            motion.pointers():subscribe(function(p)
              if p.phase == "up" then
                setmetatable({}, {__gc = function() while true do end end})
                collectgarbage()
                motion.emit("collected", true)
              end
            end)
            """
        let lines = try check(bad: bad, expecting: "disabled", error: "timeout")
        #expect(lines.last?.hasPrefix(#"{"t":0.05,"plugin":"bad","status":"disabled","version":1,"#) == true, "\(lines)")
    }

    /// A plugin stuck inside one C function of the library — a pattern that backtracks for
    /// hours, a table function looping over 10^8 empty slots, a chunk that parses in quadratic
    /// time — is stopped by its own time limit and disabled; before, only the watchdog's ending
    /// of the whole daemon stopped it. A pcall around the call does not save it.
    @Test(arguments: [
        #"string.find(("a"):rep(130), ("a-"):rep(4) .. "b")"#,
        #"("a"):rep(130):gsub(("a-"):rep(4) .. "b", "x")"#,
        #"table.move({}, 1, 1e8, 2)"#,
        #"load("return a" .. (" or a"):rep(60000))"#,
    ])
    func aPluginStuckInACFunctionIsStoppedByItsTimeLimit(_ call: String) throws {
        let bad = """
            -- motionscript: timeout=0.05
            motion.pointers():subscribe(function(p)
              if p.phase == "up" then
                pcall(function() \(call) end)
                motion.emit("survived", true)
              end
            end)
            """
        let lines = try check(bad: bad, expecting: "disabled", error: "timeout: the script ran past its time limit")
        #expect(!lines.contains { $0.contains("survived") }, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"t":0.05,"plugin":"bad","status":"disabled","version":1,"#) == true, "\(lines)")
    }

    @Test func outgrowingTheMemoryCapFailsThePlugin() throws {
        // A time limit far away: the memory cap is tested, and under ASan and load filling
        // 2 MiB took longer than the default 0.2 s (the plugin ended "disabled", by timeout).
        let bad = """
            -- motionscript: memory=2 timeout=30
            local t = {}
            motion.pointers():subscribe(function(p)
              if p.phase == "up" then for i = 1, 1e7 do t[i] = {i} end end
            end)
            """
        _ = try check(bad: bad, expecting: "failed", error: "not enough memory")
    }

    @Test func aRaisingCallbackKeepsItsSubscriptionAndIsReportedEachTime() throws {
        let config = TestConfig(["good.lua": echoPlugin, "bad.lua": """
            motion.pointers():subscribe(function(p)
              motion.emit("seen", p.phase)
              if p.phase == "up" then error("boom at " .. motion.time()) end
            end)
            """])
        let (host, diagnostics) = config.host()
        host.loadAll()
        host.run(taps(3))
        #expect(host.lines(of: "good") == alone(taps(3)))
        // Every up still reaches the callback that raised at the one before.
        #expect(host.lines(of: "bad").filter { $0.contains(#""name":"seen""#) }.count == 6)
        #expect(diagnostics.lines.filter { $0.hasPrefix("bad: error: ") && $0.contains("boom at") }.count == 3)
        #expect(host.status().first { $0.name == "bad" }?.errors == 3)
        #expect(host.plugin(named: "bad")?.state == .running)
    }

    @Test func fiveErrorsWithinTenSecondsDisableThePlugin() throws {
        let config = TestConfig(["good.lua": echoPlugin, "bad.lua": """
            motion.pointers():subscribe(function(p) if p.phase == "up" then error("boom") end end)
            """])
        let (host, _) = config.host()
        host.loadAll()
        host.run(taps(8))
        #expect(host.lines(of: "good") == alone(taps(8)))
        // The fifth error, at t=4.05, disables it: no more errors after that.
        let disabled = host.lines(of: "bad").filter { $0.contains(#""status":"disabled""#) }
        #expect(disabled.count == 1)
        #expect(disabled.first?.hasPrefix(#"{"t":4.05,"plugin":"bad","status":"disabled","version":1,"error":"5 errors within 10 s"#) == true)
        #expect(host.status().first { $0.name == "bad" }?.errors == 6)  // five callbacks and the disabling
    }

    @Test func errorsSpreadOverMoreThanTenSecondsDoNotDisable() throws {
        let config = TestConfig(["bad.lua": """
            motion.pointers():subscribe(function(p) if p.phase == "up" then error("boom") end end)
            """])
        let (host, _) = config.host()
        host.loadAll()
        // One error every 3 s: never 5 within 10 s.
        host.run((0..<8).flatMap { taps(1, from: Double($0) * 3) })
        #expect(host.plugin(named: "bad")?.state == .running)
        #expect(host.status().first?.errors == 8)
    }

    @Test func theProfileRefusesWhatWouldBlockOrEndTheHost() throws {
        let config = TestConfig(["p.lua": """
            local function try(f, ...) local ok, e = pcall(f, ...) return ok and "ok" or e end
            motion.emit("read", try(io.read))
            motion.emit("execute", try(os.execute, "true"))
            motion.emit("popen", try(io.popen, "true"))
            motion.emit("setlocale", try(os.setlocale, "C"))
            motion.emit("debug", tostring(debug))
            motion.emit("loadlib", try(package.loadlib, "x", "y"))
            motion.emit("cpath", package.cpath)
            """])
        let (host, _) = config.host()
        host.loadAll()
        let values = host.lines(of: "p").dropFirst()
        #expect(values.count == 7)
        #expect(values.allSatisfy { !$0.contains(#""value":"ok""#) }, "\(values)")
        #expect(values.first?.contains("io.read is not available to a plugin (p)") == true)
        #expect(values.dropFirst().first?.contains("use motion.exec") == true)
        #expect(values.contains(#"{"t":0,"plugin":"p","name":"debug","value":"nil"}"#))
        #expect(values.contains(#"{"t":0,"plugin":"p","name":"cpath","value":""}"#))
    }
}
