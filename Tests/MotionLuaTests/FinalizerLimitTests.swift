import MotionTestSupport
import MotionGestures
@testable import MotionLua
import Testing

/// Lua runs `__gc` with hooks off, so a finalizer that loops escaped the time limit, every
/// interruption and `lua_close`. Finalizers now run after the call into the state returns, as
/// ordinary protected calls under the limits (docs/reference.md, "Errors and exit codes").
@Suite(.timeLimit(.minutes(2))) struct FinalizerLimitTests {
    @Test func aLoopingFinalizerIsStoppedByTheTimeLimit() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            setmetatable({}, {__gc = function() while true do end end})
            collectgarbage()
            """), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(0.2)
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(runtime.pendingError?.message.contains("script.lua:1: timeout") == true)
    }

    @Test func aLoopingFinalizerDoesNotHangClose() throws {
        // Before, close() never returned: the runtime's whole life runs on a thread of its own,
        // waited for at most a minute, so that regression fails instead of hanging the run (it
        // takes milliseconds).
        var loadError: (any Error)?
        let closed = finishes(within: 60) {
            do {
                let (runtime, _) = try loadedRuntime("""
                    keep = setmetatable({}, {__gc = function() while true do end end})
                    local mt = {}
                    keep2 = setmetatable({}, mt)
                    mt.__gc = function() while true do end end -- added after: never marked, as in Lua
                    """)
                runtime.close()
            } catch {
                loadError = error
            }
        }
        #expect(closed, "close() ran a looping finalizer")
        #expect(loadError == nil)
    }

    @Test func finalizersStillRunWithTheirObjectAndErrorsInThemAreDropped() throws {
        let (runtime, output) = try loadedRuntime("""
            setmetatable({name = "a"}, {__gc = function(o) motion.emit("gc", o.name) end})
            setmetatable({}, {__gc = function() error("dropped, as Lua drops it") end})
            local t = setmetatable({name = "b"}, {__gc = function(o) motion.emit("gc", o.name) end})
            setmetatable(t, {__gc = function(o) motion.emit("gc", o.name .. " again") end})
            t = nil
            collectgarbage()
            motion.emit("setup", "done")
            """)
        defer { runtime.close() }
        #expect(runtime.pendingError == nil)
        // After the setup returned; each object once, with the __gc its metatable has then.
        #expect(output.lines.first == "0 setup \"done\"")
        #expect(output.lines.dropFirst().sorted() == ["0 gc \"a\"", "0 gc \"b again\""])
    }

    @Test(arguments: ["io.stdout", "motion.screen", "motion.property(1)"])
    func theHostsMetatablesCannotTakeALuaFinalizer(object: String) throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local ok, err = pcall(function() getmetatable(\(object)).__gc = function() while true do end end end)
            motion.emit("refused", {ok, err})
            rawset(getmetatable(\(object)), "__gc", function() while true do end end) -- the view only
            for i = 1, 10 do io.open("\(writeScript("x"))"); motion.property(i) end
            collectgarbage()
            motion.emit("read", type(getmetatable(\(object)).__index))
            """), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(5)
        try runtime.load()
        let lines = (runtime.output as! TestOutput).lines
        #expect(lines.count == 2)
        #expect(lines.first?.contains("script.lua:1: cannot change a metatable of the host\"]") == true, "\(lines)")
    }

    @Test func debugCannotReplaceAHostObjectsMetatableNorTheLimitsHook() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local ok1, e1 = pcall(debug.setmetatable, io.stdout, {__gc = function() while true do end end})
            local ok2, e2 = pcall(debug.sethook)
            motion.emit("r", {ok1, e1, ok2, e2, debug.getmetatable(io.stdout) == getmetatable(io.stdout)})
            """), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(5)
        try runtime.load()
        #expect((runtime.output as! TestOutput).lines == [
            "0 r [false,\"debug.setmetatable: cannot change the metatable of a host object (userdata)\",false,\"debug.sethook is not available while a time limit is set (it would replace the limit's hook)\",true]",
        ])
    }
}
