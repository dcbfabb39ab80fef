import MotionGestures
import MotionInput
@testable import MotionProxy
import Testing

/// The arbiter shared by the host's thread and the drain's (`ProxyLane`): every event reaches it
/// once, in order, whichever thread gave it; the host's late decision for a frame the drain
/// passed does nothing. Both sides are called from the test's thread, in the orders the two
/// threads can produce.
@Suite struct ProxyLaneTests {
    let clone = RecordedClone()

    func records(_ t: Double, _ events: [Ev]) -> [InputEventRecord] {
        let usec = Int64((t * 1e6).rounded()) + 5_000_000
        return (events + [syn]).map { InputEventRecord(sec: usec / 1_000_000, usec: usec % 1_000_000, type: $0.type, code: $0.code, value: $0.value) }
    }

    func host(_ lane: ProxyLane, _ t: Double, _ events: [Ev], _ claim: ConsumeClaim) -> Bool {
        let r = records(t, events)
        let waits = r.withUnsafeBufferPointer { lane.take(frame: $0) }
        if waits { lane.decide(claim, at: t) }
        return waits
    }

    @Test func eventsTheDrainPassedAreSkippedByTheHostAndNothingPassesTwice() {
        let arbiter = TouchArbiter(identity: padIdentity(), sink: clone)
        arbiter.observer = clone
        let lane = ProxyLane(arbiter)
        // Input time 0 is 5 s on the kernel's clock.
        lane.setOrigin(microseconds: 5_000_000)
        let down: [Ev] = [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), slot(2), tid(3), mx(300), my(100),
                          key(BTN.TOUCH, 1), key(toolTriple, 1)]
        let m1: [Ev] = [slot(0), mx(110)], m2: [Ev] = [slot(0), mx(120)], m3: [Ev] = [slot(0), mx(130)], m4: [Ev] = [slot(0), mx(140)]
        #expect(host(lane, 0.000, down, .matching))
        // The host takes the frame at 0.01 and stalls in its recognizers.
        #expect(records(0.010, m1).withUnsafeBufferPointer { lane.take(frame: $0) })
        // The drain read two more frames, passed at the stall (the first at 0.22).
        let drained = records(0.220, m2) + records(0.230, m3)
        drained.withUnsafeBufferPointer { lane.stalled($0) }
        #expect(clone.frames.map(\.events) == [down + [syn], m1 + [syn], m2 + [syn], m3 + [syn]])
        #expect(lane.stalls == 1)
        #expect(lane.stalledEvents == 6)
        // The host's late decision, then the two frames it reads from the backlog: nothing new.
        lane.decide(.began, at: 0.010)
        #expect(!host(lane, 0.220, m2, .began))
        #expect(!host(lane, 0.230, m3, .began))
        #expect(clone.frames.count == 4)
        lane.hostBack()
        // Fingers still down: the next frame passes (the touch stays the desktop's) ...
        #expect(host(lane, 0.240, m4, .began))
        #expect(clone.frames.map(\.events).last == m4 + [syn])
        // ... and its lift hands the device back to the consumers.
        #expect(host(lane, 0.250, [slot(0), tid(-1), slot(1), tid(-1), slot(2), tid(-1), key(BTN.TOUCH, 0), key(toolTriple, 0)], .none))
        #expect(!lane.with { $0.passesAll })
        #expect(clone.decisions.first { $0.word == "passing" } == .passing(t: 0.22, why: "stalled"))
        #expect(clone.decisions.last == .proxying(t: 0.25))
    }

    @Test func madeUpEventsNeverCountAgainstWhatTheDrainPassed() {
        let arbiter = TouchArbiter(identity: padIdentity(), sink: clone)
        let lane = ProxyLane(arbiter)
        let drained = records(0.1, [slot(0), tid(1), mx(100), my(100), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        drained.withUnsafeBufferPointer { lane.stalled($0) }
        let madeUp = records(0.1, [slot(0), mx(100)])
        #expect(madeUp.withUnsafeBufferPointer { lane.take(madeUp: $0) })
        lane.decide(.none, at: 0.1)
        // The 7 events the drain passed are still skipped, the 8th is taken.
        #expect(!drained.withUnsafeBufferPointer { lane.take(frame: $0) })
        #expect(clone.frames.count == 2)
    }
}
