import CLua
import CLuaShim
import Foundation
import MotionGestures
import MotionStreams
@testable import MotionLua
import Testing

/// Interruption and time limits are per Lua state (docs/reference.md, "Errors and exit codes"):
/// the host can stop one state — its time limit, or `interrupt(reason:)` — and every other
/// state on the same thread runs on; a signal still stops them all.
@Suite(.timeLimit(.minutes(5))) struct PerStateStopTests {
    /// Two scripts, loaded on this thread; `a` is stopped, `b` must not notice.
    private func two() throws -> (a: LuaRuntime, b: LuaRuntime, bOutput: TestOutput) {
        let (a, _) = try loadedRuntime("motion.pointers():subscribe(function() while true do end end)")
        let (b, output) = try loadedRuntime("""
            motion.pointers():subscribe(function(e)
              local n = 0
              for i = 1, 100000 do n = n + 1 end
              local ok = pcall(function() return 1 end)
              motion.emit("b", {e.id, n, ok})
            end)
            """)
        return (a, b, output)
    }

    @Test func aStateInterruptedByTheHostStopsAloneWithItsReason() throws {
        let (a, b, output) = try two()
        defer { a.close(); b.close() }
        a.interrupt(reason: "the plugin host stopped it")
        #expect(a.isStopped && !b.isStopped)
        #expect(throws: ScriptError.self) { try a.handle(frame(0, (1, .down, 0, 0))) }
        #expect(a.pendingError?.kind == .runtime)
        #expect(a.pendingError?.message.contains("script.lua:1: interrupted (the plugin host stopped it)") == true)
        try b.handle(frame(0, (1, .down, 0, 0)))
        try b.handle(frame(0.1, (1, .up, 0, 0)))
        #expect(output.lines == ["0 b [1,100000,true]", "0.1 b [1,100000,true]"])
    }

    @Test func aStateThatRanPastItsTimeLimitStopsAloneAndItsLimitDoesNotLeak() throws {
        let (a, b, output) = try two()
        defer { a.close(); b.close() }
        a.setTimeout(0.05)
        #expect(throws: ScriptError.self) { try a.handle(frame(0, (1, .down, 0, 0))) }
        #expect(a.pendingError?.kind == .timeout)
        // a's deadline has passed and a is stopped; b (no limit) runs as before.
        #expect(a.isStopped && !b.isStopped)
        try b.handle(frame(0, (1, .down, 0, 0)))
        #expect(output.lines == ["0 b [1,100000,true]"])
        #expect(b.pendingError == nil)
    }

    /// A state stopped from inside another state's call (a host decision made while `b` runs)
    /// stops when its turn comes, and `b`'s call finishes.
    @Test func stoppingOneStateWhileAnotherRunsLeavesTheRunningOneAlone() throws {
        let (a, b, bOutput) = try two()
        defer { a.close(); b.close() }
        final class StoppingOutput: MotionOutput {
            var target: LuaRuntime?
            var lines = 0
            func emit(t: Double, name: String, value: MotionValue) { lines += 1; target?.interrupt(reason: "stop a") }
            func emit(t: Double, name: String, state: MotionState) {}
            func log(_ line: String) {}
        }
        let output = StoppingOutput()
        let c = try LuaRuntime(scriptPath: writeScript("""
            motion.pointers():subscribe(function()
              for i = 1, 3 do pcall(motion.emit, "c", i) end
            end)
            """), output: output)
        defer { c.close() }
        try c.load()
        output.target = a
        try c.handle(frame(0, (1, .down, 0, 0)))
        #expect(output.lines == 3)
        #expect(c.pendingError == nil && !c.isStopped)
        #expect(a.isStopped)
        try b.handle(frame(0, (1, .down, 0, 0)))
        #expect(bOutput.lines.count == 1)
    }

    /// The host stops the state running now (its output failed, say): the error cannot be
    /// swallowed, and the call it was made from ends.
    @Test func interruptingTheRunningStateRaisesInItAtOnce() throws {
        final class StoppingOutput: MotionOutput {
            weak var runtime: LuaRuntime?
            var lines = 0
            func emit(t: Double, name: String, value: MotionValue) {
                lines += 1
                if lines == 5 { runtime?.interrupt(reason: "its output failed") }
            }
            func emit(t: Double, name: String, state: MotionState) {}
            func log(_ line: String) {}
        }
        let output = StoppingOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local i = 0
            while true do
              i = i + 1
              pcall(motion.emit, "n", i)
            end
            """), output: output)
        defer { runtime.close() }
        output.runtime = runtime
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(output.lines == 5)
        #expect(runtime.pendingError?.message.contains("interrupted (its output failed)") == true)
    }

    /// A watchdog thread marks a state as past its limit (only atomics): the state's hook sees it.
    @Test func aStateExpiredFromAnotherThreadStops() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local t = os.clock()
            while true do pcall(function() for i = 1, 1000 do end end) end
            """), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(3600)
        let limiter = runtime.limiter
        let thread = Thread { limiter.expire() }
        thread.start()
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(runtime.pendingError?.kind == .timeout)
        runtime.close()
        limiter.expire()  // after close: does nothing
    }
}
