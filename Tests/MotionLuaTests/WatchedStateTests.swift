import CLua
import CLuaShim
import Foundation
import MotionGestures
@testable import MotionLua
import Testing

/// A state a watchdog watches (`LuaRuntime.isWatched`) runs with no hook while within its limit
/// (Lua 5.4 traps every instruction while any hook is set), and the watchdog's `expire` stops it
/// through a signal to the thread running it; a state nobody watches keeps the count hook.
@Suite(.timeLimit(.minutes(5))) struct WatchedStateTests {
    /// What `debug.gethook()` says inside a callback run under a far time limit.
    private func hookSeenInACall(watched: Bool) throws -> [String] {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function() motion.emit("hook", tostring(debug.gethook())) end)
            """)
        defer { runtime.close() }
        runtime.isWatched = watched
        #expect(runtime.isWatched == watched)
        runtime.setTimeout(3600)
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        // Between calls too: the limit's hook is not set on the state.
        #expect((lua_gethook(runtime.mainState) == nil) == watched)
        return output.lines
    }

    @Test func aWatchedStateRunsItsCallsWithNoHook() throws {
        #expect(try hookSeenInACall(watched: true) == [#"0 hook "nil""#])
    }

    @Test func aStateNobodyWatchesKeepsTheCountHook() throws {
        #expect(try hookSeenInACall(watched: false) == [#"0 hook "external hook""#])
    }

    /// Loops that would end by themselves after 5 s of CPU (a stopped one never does): the
    /// state's own deadline is an hour away, so only the watchdog's expire, 0.1 s in, through
    /// its signal, can stop them in time.
    @Test(arguments: [
        "local t = os.clock() repeat until os.clock() - t > 5",
        "local t = os.clock() repeat pcall(function() local u = os.clock() repeat until os.clock() - u > 1 end) until os.clock() - t > 5",
        "local t = os.clock() coroutine.wrap(function() repeat until os.clock() - t > 5 end)()",
        "local t = os.clock() local co = coroutine.create(function() repeat until os.clock() - t > 5 end) repeat coroutine.resume(co) until os.clock() - t > 5",
    ])
    func aWatchedLoopIsStoppedByTheWatchdogsSignal(_ loop: String) throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function() \(loop) motion.emit("survived", true) end)
            """)
        defer { runtime.close() }
        runtime.isWatched = true
        runtime.setTimeout(3600)
        expire(runtime.limiter, after: 0.1)
        let start = ms_monotonic()
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(runtime.pendingError?.message.contains("timeout: the script ran past its time limit") == true)
        #expect(ms_monotonic() - start < 4)
        #expect(output.lines.isEmpty)
    }

    /// A watchdog's thread: its own (a queue's worker may not start while tests spin on the cores).
    private func expire(_ limiter: LuaStateLimiter, after seconds: Double) {
        Thread {
            Thread.sleep(forTimeInterval: seconds)
            limiter.expire()
        }.start()
    }

    /// A finalizer runs after the callback, in the same call: stopped there too.
    @Test func aWatchedLoopInAFinalizerIsStoppedByTheWatchdogsSignal() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function()
              setmetatable({}, {__gc = function() local t = os.clock() repeat until os.clock() - t > 5 motion.emit("survived", true) end})
              collectgarbage()
            end)
            """)
        defer { runtime.close() }
        runtime.isWatched = true
        runtime.setTimeout(3600)
        expire(runtime.limiter, after: 0.1)
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(output.lines.isEmpty)
    }

    /// The library's loops in C check the deadline themselves (CLuaShimBounded.h): a watched
    /// state's too, with no watchdog needed.
    @Test func aWatchedStateStillStopsInsideTheLibrarysCLoops() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function() pcall(string.find, ("a"):rep(130), ("a-"):rep(4) .. "b") motion.emit("survived", true) end)
            """)
        defer { runtime.close() }
        runtime.isWatched = true
        runtime.setTimeout(0.05)
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0, (1, .down, 0, 0))) }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(output.lines.isEmpty)
    }

    /// A signal that comes when no call of the state runs (late: the call ended) stops nothing
    /// else, and a new limit lets the state run again.
    @Test func anExpiryBetweenCallsStopsOnlyUntilTheNextLimit() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function(p) motion.emit("p", p.id) end)
            """)
        defer { runtime.close() }
        runtime.isWatched = true
        runtime.setTimeout(3600)
        runtime.limiter.expire()
        runtime.setTimeout(3600)
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        #expect(output.lines == ["0 p 1"])
    }
}
