import Testing
import MotionPluginHost
import MotionRun

/// The one debounce policy of `run --watch` and the daemon, on an injected clock.
@Suite struct QuietTimeTests {
    @Test func aBurstIsOneBatchOnceItsQuietTimeHasPassed() {
        var quiet = QuietTime()
        #expect(quiet.seconds == 0.075)
        #expect(quiet.dueIn(now: 0) == nil && quiet.take(now: 100) == nil)
        // An editor's save: write, rename, touch, 30 ms apart; each starts the quiet time again.
        quiet.note(["/s/a.lua"], now: 10.00)
        quiet.note(["/s/a.lua", "/s/m.lua"], now: 10.03)
        quiet.note(["/s/a.lua"], now: 10.06)
        #expect(quiet.take(now: 10.10) == nil)
        #expect(abs(quiet.dueIn(now: 10.10)! - 0.035) < 1e-9)
        #expect(quiet.take(now: 10.14) == ["/s/a.lua", "/s/m.lua"])
        // Taken: the next change is a batch of its own.
        #expect(!quiet.hasPending && quiet.take(now: 20) == nil)
        // Reading nothing changes nothing (an event on a file nobody watches).
        quiet.note([], now: 30)
        #expect(quiet.dueIn(now: 30) == nil)
    }
}
