import Foundation
@testable import MotionPluginHost
import MotionRun
import MotionLua
import Synchronization
import Testing
import MotionTestSupport
import MotionHostTestSupport

/// The watchdog works per stretch of one Lua state: at the limit it stops that state (its hook
/// raises once Lua code runs), and ends the process only when the stretch is still blocked in C
/// a grace period later. Its thread ends with it.
@Suite(.timeLimit(.minutes(5))) struct WatchdogStateTests {
    @Test func aWatchdogsThreadEndsWithIt() throws {
        // The watchdogs' own threads, by id: counting the process's threads raced the other
        // suites, which start and end threads of their own meanwhile (under load, more than
        // the margin allowed).
        var ids: [pid_t] = []
        do {
            var watchdogs: [Watchdog] = []
            for _ in 0..<20 { watchdogs.append(Watchdog(timeout: 30, what: "test")) }
            watchdogs[3].arm()
            ids = waitFor(watchdogs.compactMap(\.threadID)) { $0.count == 20 }
            #expect(ids.count == 20)
            #expect(ids.allSatisfy(taskExists))
        }
        // Each thread was joined; the kernel removes its entry as it finishes exiting.
        #expect(waitFor(ids.filter(taskExists)) { $0.isEmpty } == [])
    }

    /// Calls that never run: the thread only arms and disarms.
    static let noCalls = WatchThread.Calls(current: { nil }, expire: { _ in }, lastResort: { _ in })

    private func taskExists(_ id: pid_t) -> Bool { access("/proc/self/task/\(id)", F_OK) == 0 }

    /// `value()` once `done` holds, or its last value after 10 s (a hang guard, not a timing).
    private func waitFor<T>(_ value: @autoclosure () -> T, until done: (T) -> Bool) -> T {
        let deadline = Clock.monotonic() + 10
        var current = value()
        while !done(current), Clock.monotonic() < deadline {
            usleep(500)
            current = value()
        }
        return current
    }

    /// A daemon arms and disarms around every call into every plugin: that must not wake the
    /// thread each time (it cost a futex call and a context switch per plugin per frame).
    @Test func armingAndDisarmingWithinTheLimitDoesNotWakeTheThread() throws {
        let thread = WatchThread(grace: 60, calls: Self.noCalls)
        defer { thread.end() }
        for _ in 0..<10_000 {
            thread.armCalls(at: Clock.monotonic() + 3600, step: 3600)
            thread.disarm()
        }
        // An arm that finds the thread asleep with nothing armed wakes it (a few times, when it
        // happens to look between a disarm and the next arm); no other call does. It was 20,000.
        #expect(thread.signals <= 100, "signalled \(thread.signals) times for 10,000 calls")
    }

    /// Disarming leaves the thread's look where it was (no system call per frame); before a wait
    /// for input the host cancels it (`quiesce`), so the idle thread has no timer to wake it.
    /// Armed, a quiesce changes nothing: the stretch keeps its limit.
    @Test func quiesceCancelsThePendingLookOnlyWhenNothingIsArmed() throws {
        // A stretch published (as `Watchdog.arm` publishes one) until it is disarmed.
        let running = Mutex<(limit: Double, call: UInt64)?>(nil)
        let thread = WatchThread(grace: 60, calls: WatchThread.Calls(
            current: { running.withLock { $0 } }, expire: { _ in }, lastResort: { _ in }))
        defer { thread.end() }
        // Once it runs, the thread has looked and sleeps: it looks again only when its timer
        // fires (an hour away below), so what follows is the callers' doing alone.
        #expect(waitFor(thread.threadID) { $0 != nil } != nil)
        let limit = Clock.monotonic() + 3600
        #expect(thread.nextLook == nil)
        running.withLock { $0 = (limit, 1) }
        thread.armCalls(at: limit, step: 3600)
        #expect(thread.nextLook == limit)
        thread.quiesce()
        #expect(thread.nextLook == limit)
        running.withLock { $0 = nil }
        thread.disarm()
        #expect(thread.nextLook == limit)
        thread.quiesce()
        #expect(thread.nextLook == nil)
        running.withLock { $0 = (limit + 1, 2) }
        thread.armCalls(at: limit + 1, step: 3600)
        #expect(thread.nextLook == limit + 1)
    }

    /// A daemon's calls keep the thread's watch from one frame to the next (`watchCalls`: no
    /// lock, no timer set per call); a look that finds no call running ends it, and the next
    /// call arms it again.
    @Test func aLookWithoutACallEndsTheWatchUntilTheNextCall() throws {
        let running = Mutex<(limit: Double, call: UInt64)?>(nil)
        let thread = WatchThread(grace: 60, calls: WatchThread.Calls(
            current: { running.withLock { $0 } }, expire: { _ in }, lastResort: { _ in }))
        defer { thread.end() }
        #expect(waitFor(thread.threadID) { $0 != nil } != nil)
        // A call arms the watch (its first look an hour away); the calls after it set no timer.
        running.withLock { $0 = (Clock.monotonic() + 3600, 1) }
        thread.watchCalls(firstLookAt: Clock.monotonic() + 3600, step: 3600)
        let signals = thread.signals
        #expect(thread.nextLook != nil)
        for call in 2...1000 {
            running.withLock { $0 = (Clock.monotonic() + 3600, UInt64(call)) }
            thread.watchCalls(firstLookAt: Clock.monotonic() + 3600, step: 3600)
        }
        #expect(thread.signals == signals)
        // The calls end; a look soon (a call with a short limit arms it so) finds none running,
        // and the thread stops watching: no look pending, nothing to wake it.
        running.withLock { $0 = nil }
        thread.disarm()
        thread.watchCalls(firstLookAt: Clock.monotonic() + 0.01, step: 0.01)
        #expect(waitFor(thread.nextLook) { $0 == nil } == nil)
        // The next call arms it again.
        running.withLock { $0 = (Clock.monotonic() + 3600, 1001) }
        thread.watchCalls(firstLookAt: Clock.monotonic() + 3600, step: 3600)
        #expect(thread.nextLook != nil)
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
