import MotionGestures
import MotionInput
@testable import MotionProxy
import Testing

/// Pass-all (`TouchArbiter.passAll`): a stalled host, `ctl pause`, the emergency gesture hand the
/// desktop its pad without losing the touch in progress, and the consumers decide again only at
/// the next moment no finger is down.
extension TouchArbiterTests {
    var three: [Ev] {
        [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), slot(2), tid(3), mx(300), my(100),
         key(BTN.TOUCH, 1), key(toolTriple, 1)]
    }
    var threeUp: [Ev] { [slot(0), tid(-1), slot(1), tid(-1), slot(2), tid(-1), key(BTN.TOUCH, 0), key(toolTriple, 0)] }
    func move(_ x: Int32) -> [Ev] { [slot(0), mx(100 + x), slot(1), mx(200 + x), slot(2), mx(300 + x)] }

    /// Takes a frame's events without deciding it (the host is in the recognizers).
    func takeOnly(_ t: Double, _ events: [Ev]) {
        for e in events + [syn] {
            let usec = Int64((t * 1e6).rounded())
            _ = arbiter.take(InputEventRecord(sec: usec / 1_000_000, usec: usec % 1_000_000, type: e.type, code: e.code, value: e.value))
        }
    }

    @Test func aStallMidHoldReleasesTheHeldFramesInOrderAndPassesTheRest() {
        frame(0.000, three, .matching)
        frame(0.010, move(10), .matching)
        // The host took the frame at 0.02 and stalled in its recognizers; the drain passes all at 0.25.
        takeOnly(0.020, move(20))
        arbiter.passAll(.stalled, at: 0.25, undecidedAt: 0.02)
        #expect(clone.frames.map(\.events) == [three + [syn], move(10) + [syn], move(20) + [syn]])
        assertDues([0.25, 0.26, 0.27])
        // The host's late decision for the frame the drain passed does nothing: not consumed.
        arbiter.decide(.began, at: 0.02)
        #expect(!arbiter.isConsumed)
        frame(0.030, move(30), .began)
        #expect(clone.frames.count == 4)
        assertDues([0.25, 0.26, 0.27, 0.28])
        // The host is back mid-touch: the touch keeps passing to its end.
        arbiter.takeBack(.stalled, at: 0.3)
        #expect(arbiter.passesAll)
        frame(0.040, move(40), .matching)
        frame(0.050, threeUp, .matching)
        #expect(clone.frames.count == 6)
        #expect(!arbiter.passesAll)
        #expect(clone.decisions == [.held(t: 0), .passing(t: 0.25, why: "stalled"), .released(t: 0.25, frames: 3, lag: 0.25),
                                    .touch(t: 0.05, passed: 6, held: 3, consumed: 0), .proxying(t: 0.05)])
        // The next touch is the consumers' again: held.
        frame(1.000, three, .matching)
        #expect(clone.frames.count == 6)
        #expect(arbiter.isHolding)
    }

    @Test func aConsumedTouchStaysConsumedThroughAStallUntilItsLift() {
        frame(0.000, [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), key(BTN.TOUCH, 1), key(toolDouble, 1)])
        frame(0.010, [slot(2), tid(3), mx(300), my(100), key(toolDouble, 0), key(toolTriple, 1)], .matching)
        frame(0.020, move(20), .began)
        #expect(clone.frames.count == 1)
        arbiter.passAll(.stalled, at: 0.3)
        frame(0.310, move(30))
        frame(0.320, [key(BTN.LEFT, 1)])
        frame(0.330, [key(BTN.LEFT, 0)])
        // Nothing of the consumed touch, not even its click, until its lift lifts the clone's two fingers.
        #expect(clone.frames.count == 1)
        frame(0.340, threeUp)
        #expect(clone.frames.count == 2)
        #expect(clone.frames[1].events == [slot(0), tid(-1), slot(1), tid(-1), key(BTN.TOUCH, 0), key(toolDouble, 0), syn])
        // Still stalled: the next touch passes whatever the consumers say.
        frame(0.400, three, .matching)
        frame(0.410, move(10), .began)
        #expect(clone.frames.count == 4)
        #expect(arbiter.touches == ProxyTouchCounts(passed: 0, held: 0, consumed: 1))
    }

    @Test func pauseAndResumeTakeTheDeviceBackOnlyAtTheNextIdleMoment() {
        arbiter.passAll(.paused, at: 0)
        frame(0.000, three, .matching)
        frame(0.010, move(10), .began)
        #expect(clone.frames.count == 2)
        assertDues([0, 0.01])
        // Resumed with three fingers down: they stay the desktop's until they lift.
        arbiter.takeBack(.paused, at: 0.015)
        frame(0.020, move(20), .began)
        frame(0.030, threeUp)
        #expect(clone.frames.count == 4)
        #expect(clone.decisions.suffix(2) == [.touch(t: 0.03, passed: 4, held: 0, consumed: 0), .proxying(t: 0.03)])
        frame(0.100, three, .matching)
        frame(0.110, move(10), .began)
        #expect(clone.frames.count == 4)
        frame(0.120, threeUp)
        // Resumed while idle: the consumers decide at once.
        arbiter.passAll(.paused, at: 0.2)
        arbiter.takeBack(.paused, at: 0.25)
        #expect(!arbiter.passesAll)
        #expect(clone.decisions.suffix(2) == [.passing(t: 0.2, why: "paused"), .proxying(t: 0.25)])
        #expect(arbiter.touches == ProxyTouchCounts(passed: 1, held: 0, consumed: 1))
    }

    @Test func bothReasonsMustEndBeforeTheConsumersDecideAgain() {
        arbiter.passAll(.paused, at: 0)
        arbiter.passAll(.stalled, at: 0.1)
        #expect(arbiter.passReasons.word == "stalled+paused")
        arbiter.takeBack(.stalled, at: 0.2)
        #expect(arbiter.passesAll)
        frame(0.300, three, .matching)
        #expect(clone.frames.count == 1)
        frame(0.310, threeUp)
        #expect(arbiter.passesAll)
        arbiter.takeBack(.paused, at: 0.4)
        #expect(!arbiter.passesAll)
        // Told once, with the first reason.
        #expect(clone.decisions.filter { $0.word == "passing" } == [.passing(t: 0, why: "paused")])
    }

    @Test func timeAloneDecidesNothingWhilePassingAll() {
        frame(0.000, three, .matching)
        arbiter.passAll(.paused, at: 0.05)
        #expect(clone.frames.count == 1)
        arbiter.update(.began, at: 0.1)
        #expect(!arbiter.isConsumed)
        frame(0.110, threeUp, .began)
        #expect(clone.frames.count == 2)
    }

    @Test func touchesAreCountedByWhatBecameOfThem() {
        for (t, events) in oneFinger { frame(t, events) }
        for (t, events) in oneFinger { frame(t + 1, events, .couldBecome) }
        frame(2.000, three, .matching)
        frame(2.010, threeUp, .began)
        #expect(arbiter.touches == ProxyTouchCounts(passed: 1, held: 1, consumed: 1))
        #expect(arbiter.lastDecision == .touch(t: 2.01, passed: 0, held: 2, consumed: 2))
    }
}
