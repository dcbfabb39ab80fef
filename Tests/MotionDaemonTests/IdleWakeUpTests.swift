import Foundation
import Testing
import MotionDaemon
import MotionGestures
@testable import MotionPluginHost
import MotionInput

/// Live input from a list of frames, its clock injected; past the list, a wait without a limit
/// (nothing scheduled) is where the loop would sleep until input: what each such wait finds is
/// recorded (`idle`), then input ends. A wait with a limit (something scheduled) ends at that
/// limit on the injected clock, without a frame.
private final class IdleProbeSource: LiveFrameSource {
    var frames: [Frame]
    var now = 0.0
    var started = false
    /// Called at each wait without a limit.
    var atIdle: () -> Void = {}
    /// The limits of the waits (nil: none), in order.
    var waits: [Double?] = []

    init(_ frames: [Frame]) { self.frames = frames }

    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        waits.append(timeout)
        if !frames.isEmpty, timeout == nil || frames[0].t <= now + timeout! {
            let frame = frames.removeFirst()
            now = max(now, frame.t)
            started = true
            return .frame(frame)
        }
        guard let timeout else {
            atIdle()
            return .end("end of input")
        }
        now += timeout
        return .timeout
    }

    func inputTimeNow() -> Double? { started ? now : nil }
    func stop() { frames = [] }
}

/// Issue 19: "0 wake-ups per second when there is no input and nothing is scheduled". The
/// daemon's threads sleep without a timeout then: the loop's wait has no limit, and the
/// watchdog's thread has no look pending (it would wake, find nothing armed, and sleep again).
/// Asserted on the state itself (the thread's timer), not by counting wake-ups over time.
@Suite struct IdleWakeUpTests {
    /// Loading arms the watchdog per plugin; once the loop waits for input, no look is pending.
    /// (It was: the thread woke once, a time limit after start-up — the 0.2/s of a 5 s window.)
    @Test func afterStartUpNothingWakesTheWatchdog() throws {
        let config = TestConfig(["a.lua": #"motion.pointers():emit("a")"#, "b.lua": #"motion.pointers():emit("b")"#])
        // A limit far longer than the test: the thread cannot have looked by itself meanwhile.
        let (host, _) = config.host(defaults: PluginLimits(timeout: 600, memoryMiB: 16))
        let watchdog = Watchdog(record: nil)
        host.watchdog = watchdog
        let source = IdleProbeSource([])
        var pendingLooks: [Double?] = []
        source.atIdle = { pendingLooks.append(watchdog.nextLook) }
        #expect(try HostLoop.runLive(source, host: host, watcher: nil) == "end of input")
        #expect(source.waits == [nil])
        #expect(pendingLooks == [nil])
    }

    /// A tap and a hold schedule their decisions: the loop waits until then, runs them, and once
    /// nothing is scheduled waits without a limit, the watchdog's look (armed for the decisions'
    /// calls) cancelled.
    @Test func onceScheduledWorkRanNothingIsArmed() throws {
        let config = TestConfig(["t.lua": """
            motion.gesture(motion.tap{taps = 2}):emit("tap2")
            motion.gesture(motion.hold{fingers = 1, duration = 0.5}):emit("hold")
            """])
        let (host, _) = config.host(defaults: PluginLimits(timeout: 600, memoryMiB: 16))
        let watchdog = Watchdog(record: nil)
        host.watchdog = watchdog
        // One tap: down at 10 s, up at 10.05 s.
        let source = IdleProbeSource(taps(1, from: 10))
        var pendingLooks: [Double?] = []
        source.atIdle = { pendingLooks.append(watchdog.nextLook) }
        #expect(try HostLoop.runLive(source, host: host, watcher: nil) == "end of input")
        // Before input: no limit. After the down: until the hold's decision (10.5 s), cut short
        // by the up at 10.05 s; then until the double tap's decision; then none.
        #expect(source.waits.first! == nil)
        #expect(source.waits.last! == nil)
        #expect(source.waits.dropFirst().dropLast().allSatisfy { $0 != nil }, "\(source.waits)")
        #expect(source.waits.count >= 3, "\(source.waits)")
        #expect(pendingLooks == [nil])
    }
}
