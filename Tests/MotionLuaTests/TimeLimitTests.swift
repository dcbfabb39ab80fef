import CLua
import CLuaShim
import MotionGestures
@testable import MotionLua
import Testing

/// The time limit cannot be caught: once a state's deadline has passed, its Lua code raises at
/// every instruction, call and return, as an interruption does, so pcall, xpcall,
/// coroutine.resume and coroutine.close cannot swallow the error and go on.
@Suite struct TimeLimitTests {
    /// Loads `source` under a time limit of `seconds`; returns the error it stopped with.
    private func stopped(_ source: String, seconds: Double = 0.2) throws -> ScriptError? {
        let runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(seconds)
        do {
            try runtime.load()
            return nil
        } catch let error as ScriptError {
            return error
        }
    }

    @Test func pcallInALoopCannotSwallowTheTimeLimit() throws {
        let error = try stopped("""
            local caught = 0
            while true do
              pcall(function() while true do end end)
              caught = caught + 1
            end
            """)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("script.lua:") == true)
        #expect(error?.message.contains("timeout: the script ran past its time limit") == true)
    }

    @Test func xpcallWithALoopingHandlerCannotSwallowIt() throws {
        let error = try stopped("""
            while true do
              xpcall(function() while true do end end, function(e) for i = 1, 100 do end return e end)
            end
            """)
        #expect(error?.kind == .timeout)
    }

    @Test func aCoroutineClosedInALoopCannotSwallowIt() throws {
        // Each coroutine's __close handler loops; coroutine.close runs it and returns false.
        let error = try stopped("""
            while true do
              local co = coroutine.create(function()
                local guard <close> = setmetatable({}, {__close = function() while true do end end})
                coroutine.yield()
              end)
              coroutine.resume(co)
              coroutine.close(co)
            end
            """)
        #expect(error?.kind == .timeout)
    }

    @Test func aResumedCoroutineInALoopCannotSwallowIt() throws {
        let error = try stopped("""
            while true do
              local co = coroutine.wrap(function() while true do end end)
              pcall(co)
            end
            """)
        #expect(error?.kind == .timeout)
    }

    /// A coroutine made while no limit was set has no hook of its own: it gets its state's when
    /// it is resumed under one.
    @Test func aCoroutineMadeBeforeTheLimitIsBoundByIt() throws {
        let (runtime, _) = try loadedRuntime("""
            local co = coroutine.create(function() while true do end end)
            motion.pointers():subscribe(function() coroutine.resume(co) end)
            """)
        defer { runtime.close() }
        runtime.setTimeout(0.2)
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.kind == .timeout)
    }

    /// The stop lasts for the stretch: a callback run after the timeout in the same stretch
    /// raises at once; a new time limit (a new stretch) lets Lua run again.
    @Test func aTimedOutStateStaysStoppedUntilANewLimitIsSet() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("return 1"), output: TestOutput())
        defer { runtime.close() }
        let L = runtime.mainState
        runtime.setTimeout(0.05)
        #expect(luaL_loadstring(L, "local t = os.clock() repeat until os.clock() - t > 0.2") == LUA_OK)
        #expect(ms_pcalllua(L, 0, 0, 0) == LUA_ERRRUN)
        #expect(ms_timedout(L) == 1)
        #expect(luaL_loadstring(L, "x = 1") == LUA_OK)
        #expect(ms_pcalllua(L, 0, 0, 0) == LUA_ERRRUN)
        lua_settop(L, 0)
        runtime.setTimeout(10)
        #expect(ms_timedout(L) == 0)
        #expect(luaL_loadstring(L, "x = 1") == LUA_OK)
        #expect(ms_pcalllua(L, 0, 0, 0) == LUA_OK)
    }

    /// The deadline is kept once, in the state (interrupt.c's `ms_Extra.deadline`, which the hooks
    /// read): the runtime reads that copy, so what a host compares (`Plugin.begin`) is what the
    /// hooks enforce; none is 0, and a closed runtime reads 0 (the state's block is gone).
    @Test func theDeadlineIsKeptOnceInTheState() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("return 1"), output: TestOutput())
        defer { runtime.close() }
        #expect(runtime.deadline == 0)
        runtime.setDeadline(123.5)
        #expect(runtime.deadline == 123.5)
        #expect(ms_deadlineslot(runtime.mainState).pointee == 123.5)
        runtime.setDeadline(-1)
        #expect(runtime.deadline == 0 && ms_deadlineslot(runtime.mainState).pointee == 0)
        runtime.setTimeout(10, now: 1000)
        #expect(runtime.deadline == 1010)
        runtime.close()
        #expect(runtime.deadline == 0)
        runtime.setDeadline(5)
        #expect(runtime.deadline == 0)
    }
}

/// Loops with no Lua in them: properties feeding each other through delay(0) run Swift
/// operators only, at one instant of input time.
@Suite struct ClockRunawayTests {
    @Test(arguments: [
        "local p = motion.property(0)\np:delay(0):subscribe(p)",
        "local a, b = motion.property(0), motion.property(0)\na:delay(0):subscribe(b)\nb:delay(0):subscribe(a)",
    ])
    func aDelayZeroFeedingItselfStopsWithAnErrorThatNamesIt(source: String) throws {
        let (runtime, _) = try loadedRuntime(source)
        defer { runtime.close() }
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.5, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.message.contains("more than 100000 actions at input time 0 s without time moving on") == true,
                "\(String(describing: runtime.pendingError))")
    }

    /// The host stopped the state: the clock's drain notices, though no Lua code runs in it.
    @Test func theClocksDrainNoticesTheStateWasStopped() throws {
        let (runtime, _) = try loadedRuntime("local p = motion.property(0)\np:delay(0):subscribe(p)")
        defer { runtime.close() }
        runtime.interrupt(reason: "the host stopped it")
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.5, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.message.contains("interrupted (the host stopped it)") == true)
    }

    /// A deadline long past: the clock's drain stops at it with the time limit's error (no Lua
    /// code runs there for the hook to see it), before the runaway count is reached.
    @Test func theClocksDrainStopsAtThePastDeadline() throws {
        let (runtime, _) = try loadedRuntime("local p = motion.property(0)\np:delay(0):subscribe(p)")
        defer { runtime.close() }
        runtime.setDeadline(1)
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.5, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(runtime.pendingError?.message.contains("timeout: the script ran past its time limit (input time ") == true,
                "\(String(describing: runtime.pendingError))")
    }
}
