import Testing
import MotionGestures
@testable import MotionLua

/// The Lua seam: errors never unwind through Swift, nothing leaks, subscriptions live on.
@Suite struct LuaSeamTests {
    @Test func callbackErrorsRaisedThousandsOfTimesAreCaughtAndLeakNothing() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            p:map(function(v)
                if v > 0 then error("bad " .. v) end
                return v
            end):subscribe(function() end)
            local caught = 0
            local before
            for i = 1, 5000 do
                local ok, err = pcall(p.write, p, i)
                if not ok and err:find("bad " .. i, 1, true) then caught = caught + 1 end
                if i == 100 then collectgarbage(); collectgarbage(); before = collectgarbage("count") end
            end
            collectgarbage(); collectgarbage()
            motion.emit("caught", caught)
            motion.emit("growthKB", math.floor(collectgarbage("count") - before))
            """)
        #expect(output.lines[0] == "0 caught 5000")
        let growth = Int(output.lines[1].split(separator: " ").last!)!
        #expect(growth < 16, "Lua heap grew by \(growth) KB over 4900 raised errors")
        #expect(runtime.pendingError == nil)
        // The map and subscribe callbacks, and nothing more.
        #expect(runtime.liveCallbacks == 2)
        runtime.close()
        #expect(runtime.liveCallbacks == 0)
    }

    @Test func errorInACallbackDuringAFrameStopsTheRunWithFileLineAndTraceback() throws {
        let (runtime, _) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):map(function(g)
                if g.state == "began" then error("no drag today") end
                return g
            end):subscribe(function() end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.016, (1, .move, 5, 0))) }
        let message = runtime.pendingError?.message ?? ""
        #expect(message.contains("script.lua:3: no drag today"))
        #expect(message.contains("stack traceback:"))
        #expect(runtime.pendingError?.kind == .runtime)
    }

    @Test func setupErrorNamesScriptAndLine() throws {
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("local a = 1\nlocal b = nil + 1\n"), output: output)
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected an error")
        } catch let error as ScriptError {
            #expect(error.kind == .runtime)
            #expect(error.message.contains("script.lua:2: attempt to perform arithmetic on a nil value"))
            #expect(error.message.contains("stack traceback:"))
        }
    }

    @Test func syntaxErrorIsFileLineMessage() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("local x = \nlocal = 3\n"), output: TestOutput())
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected a syntax error")
        } catch let error as ScriptError {
            #expect(error.kind == .syntax)
            #expect(error.message.hasSuffix("script.lua:2: unexpected symbol near 'local'"))
        }
    }

    @Test func bindingArgumentErrorsAreLuaErrorsAtTheCallersLine() throws {
        let (runtime, output) = try loadedRuntime("""
            local ok, err = pcall(function()
                return motion.property(1):map(42)
            end)
            motion.emit("err", err)
            """)
        defer { runtime.close() }
        #expect(output.lines.count == 1)
        #expect(output.lines[0].hasSuffix("/script.lua:2: bad argument #2 to 'map' (function expected, got number)\""))
    }

    @Test func subscriptionWithoutReferenceSurvivesGarbageCollection() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):subscribe(function(g) motion.emit("state", g.state) end)
            collectgarbage(); collectgarbage()
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        #expect(output.lines == ["0 state \"possible\"", "0.016 state \"began\"", "0.032 state \"changed\"",
                                 "0.048 state \"ended\""])
        #expect(runtime.subscriptionCount == 1)
    }

    @Test func unsubscribeStopsDeliveryAndReleasesTheSubscription() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(1)
            local sub = p:subscribe(function(v) motion.emit("v", v) end)
            p:write(2)
            sub:unsubscribe()
            sub:unsubscribe()
            p:write(3)
            """)
        #expect(output.lines == ["0 v 1", "0 v 2"])
        #expect(runtime.subscriptionCount == 0)
        runtime.close()
        #expect(runtime.liveCallbacks == 0)
    }

    @Test func closingReleasesEverySwiftObjectLuaHeld() throws {
        weak var recognizer: GestureRecognizer?
        do {
            let (runtime, _) = try loadedRuntime("""
                local box = motion.property({x = 0, y = 0})
                local pan = motion.pan{}
                motion.gesture(pan):translation(box):subscribe(box)
                box:emit("position")
                """)
            recognizer = runtime.dispatcher.recognizers.first
            #expect(recognizer != nil)
            #expect(recognizer!.listenerCount == 1)
            runtime.close()
            #expect(recognizer!.listenerCount == 0)
        }
        #expect(recognizer == nil)
    }

    @Test func runawayScriptIsStoppedByTheTimeout() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("local n = 0\nwhile true do n = n + 1 end\n"), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(0.2)
        do {
            try runtime.load()
            Issue.record("expected a timeout")
        } catch let error as ScriptError {
            #expect(error.kind == .timeout)
            #expect(error.message.contains("script.lua:2: timeout"))
        }
    }

    @Test func memoryCapStopsAScriptThatExhaustsMemory() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("local t = {}\nfor i = 1, 1e9 do t[i] = {i} end\n"),
                                     output: TestOutput(), memoryLimit: 8 << 20)
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected running out of memory")
        } catch let error as ScriptError {
            #expect(error.kind == .memory)
            #expect(error.message.contains("not enough memory"))
        }
        #expect(runtime.memoryUsed <= 8 << 20)
    }

    @Test func requireMotionReturnsTheGlobalAndSiblingModulesLoad() throws {
        let script = writeScript("""
            local m = require "motion"
            local helper = require "helper"
            motion.emit("same", m == motion)
            motion.emit("helper", helper.answer)
            """)
        let folder = String(script[..<script.lastIndex(of: "/")!])
        _ = writeScript("return {answer = 42}\n", name: "helper.lua",
                        in: .init(fileURLWithPath: folder))
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: script, output: output)
        defer { runtime.close() }
        try runtime.load()
        #expect(output.lines == ["0 same true", "0 helper 42"])
    }
}

@Suite struct EndOfInputTests {
    @Test func aDelayThatFeedsItselfIsStoppedAtTheSettleHorizonNotHung() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            p:delay(1):map(function(v) return v + 1 end):subscribe(p)
            p:emit("p")
            """)
        defer { runtime.close() }
        #expect(throws: ScriptError.self) { try runtime.finish() }
        #expect(runtime.pendingError!.message.contains("still running 60 s of input time after the end of input (next at t=60)"))
        // One value per second of input time until the horizon.
        #expect(output.lines.count == 60)
        #expect(output.lines.last == "59 p 59")
    }
}

@Suite struct HostileScriptTests {
    @Test func readingAGlobalIgnoresAMetatableOnGThatRaises() throws {
        let (runtime, _) = try loadedRuntime("""
            answer = 42
            setmetatable(_G, {__index = function() error("no globals for you") end,
                              __newindex = function() error("read-only") end})
            """)
        defer { runtime.close() }
        #expect(runtime.global("answer") == .number(42))
        #expect(runtime.global("missing") == .null)
    }
}

@Suite struct ReentrancyTests {
    @Test func subscribingFromInsideACallbackToTheSameSourceIsSafe() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(1)
            p:subscribe(function(v)
              if v == 2 then p:subscribe(function(w) motion.emit("inner", w) end) end
            end)
            p:write(2)
            p:write(3)
            local pan = motion.pan{threshold = 0}
            local added = false
            motion.gesture(pan):subscribe(function(g)
              if g.state == "began" and not added then
                added = true
                motion.gesture(pan):subscribe(function(h) motion.emit("late", h.state) end)
              end
            end)
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        // The inner subscriber sees the value current when it joined, then later writes; the
        // late gesture subscriber starts with the snapshot current at subscription.
        #expect(output.lines == ["0 inner 2", "0 inner 3", "0.016 late \"began\"", "0.032 late \"changed\"",
                                 "0.048 late \"ended\""])
    }
}
