import MotionGestures
import MotionInput
@testable import MotionProxy
import Testing

/// What the clone got: each frame's events (without times) and when it was due.
final class RecordedClone: CloneSink, ProxyDecisionObserver {
    var frames: [(events: [Ev], due: Double)] = []
    var decisions: [ProxyDecision] = []

    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {
        frames.append((frame.map { Ev($0.type, $0.code, $0.value) }, due))
    }

    func proxy(_ decision: ProxyDecision, device: Int) { decisions.append(decision) }
    var dues: [Double] { frames.map(\.due) }
}

/// An event without its time, for comparisons.
struct Ev: Equatable, CustomStringConvertible {
    let type: UInt16, code: UInt16, value: Int32
    init(_ type: UInt16, _ code: UInt16, _ value: Int32) { (self.type, self.code, self.value) = (type, code, value) }
    var description: String { "\(type):\(String(code, radix: 16))=\(value)" }
}

let syn = Ev(EV.SYN, SYN.REPORT, 0)
func slot(_ s: Int32) -> Ev { Ev(EV.ABS, ABS.MT_SLOT, s) }
func tid(_ id: Int32) -> Ev { Ev(EV.ABS, ABS.MT_TRACKING_ID, id) }
func mx(_ v: Int32) -> Ev { Ev(EV.ABS, ABS.MT_POSITION_X, v) }
func my(_ v: Int32) -> Ev { Ev(EV.ABS, ABS.MT_POSITION_Y, v) }
func key(_ code: UInt16, _ v: Int32) -> Ev { Ev(EV.KEY, code, v) }
let toolFinger: UInt16 = 0x145, toolDouble: UInt16 = 0x14d, toolTriple: UInt16 = 0x14e

/// A clickpad with 5 slots.
func padIdentity() -> CloneIdentity {
    var d = DeviceDescription()
    d.name = "Test Clickpad"
    d.absinfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: 4)
    d.absinfo[ABS.MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 1000, resolution: 10)
    d.absinfo[ABS.MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 600, resolution: 10)
    d.absinfo[ABS.X] = AbsInfo(minimum: 0, maximum: 1000, resolution: 10)
    d.absinfo[ABS.Y] = AbsInfo(minimum: 0, maximum: 600, resolution: 10)
    for k in [BTN.LEFT, BTN.TOUCH, toolFinger, toolDouble, toolTriple] { d.add(type: EV.KEY, code: k) }
    d.properties = [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD]
    return CloneIdentity(d)
}

@Suite final class TouchArbiterTests {
    var clone: RecordedClone!
    var arbiter: TouchArbiter!

    init() {
        reset()
    }

    func reset() {
        clone = RecordedClone()
        arbiter = TouchArbiter(identity: padIdentity(), sink: clone)
        arbiter.observer = clone
    }

    func assertDues(_ expected: [Double], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(clone.dues.count == expected.count, sourceLocation: sourceLocation)
        for (a, b) in zip(clone.dues, expected) { #expect(abs(a - (b)) < 1e-9, sourceLocation: sourceLocation) }
    }

    /// Feeds one frame (its events, then SYN_REPORT) and decides it with `claim` at `t`.
    func frame(_ t: Double, _ events: [Ev], _ claim: ConsumeClaim = .none) {
        for e in events + [syn] {
            let usec = Int64((t * 1e6).rounded())
            let done = arbiter.take(InputEventRecord(sec: usec / 1_000_000, usec: usec % 1_000_000, type: e.type, code: e.code, value: e.value))
            #expect(done == (e == syn))
        }
        arbiter.decide(claim, at: t)
    }

    // One finger, two moves, the lift.
    let oneFinger: [(Double, [Ev])] = [
        (0.000, [slot(0), tid(7), mx(100), my(200), key(BTN.TOUCH, 1), key(toolFinger, 1)]),
        (0.010, [mx(110)]),
        (0.020, [mx(125), my(205)]),
        (0.030, [tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0)]),
    ]

    @Test func withoutConsumersEveryFramePassesUnchangedAtItsOwnTime() {
        for (t, events) in oneFinger { frame(t, events) }
        #expect(clone.frames.map(\.events) == oneFinger.map { $0.1 + [syn] })
        #expect(clone.dues == [0.0, 0.01, 0.02, 0.03])
        #expect(clone.decisions == [.touch(t: 0.03, passed: 4, held: 0, consumed: 0)])
    }

    @Test func aTouchThatCouldBecomeAConsumersIsHeldAtMostTwoFramesThenReleasedAtItsPace() {
        // A 3-finger consumer waits: one finger could still become three.
        for (t, events) in oneFinger { frame(t, events, .couldBecome) }
        #expect(clone.frames.map(\.events) == oneFinger.map { $0.1 + [syn] })
        // Held at 0 and 0.01, released at 0.02: 0.02 s late, and so is the rest of the touch.
        #expect(clone.dues == [0.02, 0.03, 0.04, 0.05])
        #expect(clone.decisions == [.held(t: 0), .released(t: 0.02, frames: 3, lag: 0.02),
                                         .touch(t: 0.03, passed: 4, held: 3, consumed: 0)])
    }

    @Test func theLagEndsWithTheTouch() {
        for (t, events) in oneFinger { frame(t, events, .couldBecome) }
        for (t, events) in oneFinger { frame(t + 1, events) }
        #expect(clone.dues.suffix(4) == [1.0, 1.01, 1.02, 1.03])
    }

    @Test func aConsumedTouchNeverReachesTheClone() {
        let three: [Ev] = [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), slot(2), tid(3), mx(300), my(100),
                           key(BTN.TOUCH, 1), key(toolTriple, 1)]
        frame(0.000, three, .matching)
        frame(0.010, [slot(0), mx(130), slot(1), mx(230), slot(2), mx(330)], .matching)
        frame(0.020, [slot(0), mx(170), slot(1), mx(270), slot(2), mx(370)], .began)
        frame(0.030, [slot(0), mx(200), slot(1), mx(300), slot(2), mx(400)], .began)
        frame(0.040, [slot(0), tid(-1), slot(1), tid(-1), slot(2), tid(-1), key(BTN.TOUCH, 0), key(toolTriple, 0)])
        #expect(clone.frames.isEmpty)
        #expect(clone.decisions == [.held(t: 0), .consumed(t: 0.02, frames: 3),
                                         .touch(t: 0.04, passed: 0, held: 3, consumed: 5)])
    }

    @Test func fingersTheCloneSawStayStillAndLiftOnlyAtTheRealLift() {
        // Two fingers scroll (passed); a late third finger; the consumer begins.
        frame(0.000, [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), key(BTN.TOUCH, 1), key(toolDouble, 1)])
        frame(0.010, [slot(0), my(120), slot(1), my(120)])
        frame(0.020, [slot(2), tid(3), mx(300), my(120), key(toolDouble, 0), key(toolTriple, 1)], .matching)
        frame(0.030, [slot(0), mx(150), slot(1), mx(250), slot(2), mx(350)], .began)
        frame(0.040, [slot(0), mx(200)])
        // The first finger lifts early: the clone's stays down.
        frame(0.050, [slot(0), tid(-1), key(toolTriple, 0), key(toolDouble, 1)])
        #expect(clone.frames.count == 2)
        frame(0.060, [slot(1), tid(-1), slot(2), tid(-1), key(BTN.TOUCH, 0), key(toolDouble, 0)])
        #expect(clone.frames.count == 3)
        #expect(clone.frames[2].events == [slot(0), tid(-1), slot(1), tid(-1), key(BTN.TOUCH, 0), key(toolDouble, 0), syn])
        #expect(clone.frames[2].due == 0.06)
        #expect(clone.decisions == [.held(t: 0.02), .consumed(t: 0.03, frames: 2),
                                         .lifted(t: 0.06, fingers: 2, buttons: 0, why: "touch-end"),
                                         .touch(t: 0.06, passed: 2, held: 2, consumed: 5)])
    }

    @Test func clickpadButtonsPassUnlessTheTouchIsConsumed() {
        frame(0.000, [slot(0), tid(1), mx(100), my(500), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        frame(0.010, [key(BTN.LEFT, 1)])
        frame(0.020, [key(BTN.LEFT, 0)])
        #expect(clone.frames.map(\.events)[1] == [key(BTN.LEFT, 1), syn])
        #expect(clone.frames.map(\.events)[2] == [key(BTN.LEFT, 0), syn])
        // Consumed with the button down: the clone never sees the press.
        frame(0.030, [slot(0), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0)])
        frame(0.100, [slot(0), tid(2), mx(100), my(500), key(BTN.TOUCH, 1), key(toolFinger, 1)], .matching)
        frame(0.110, [key(BTN.LEFT, 1)], .began)
        frame(0.120, [key(BTN.LEFT, 0)])
        frame(0.130, [slot(0), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0)])
        #expect(clone.frames.count == 4)
    }

    @Test func everyConsumerFailingReleasesTheHeldFramesInOrder() {
        // A 2-finger swipe consumer watches a 2-finger scroll until it fails at 0.03.
        let frames: [(Double, [Ev])] = [
            (0.000, [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), key(BTN.TOUCH, 1), key(toolDouble, 1)]),
            (0.012, [slot(0), my(110), slot(1), my(110)]),
            (0.024, [slot(0), my(125), slot(1), my(125)]),
            (0.036, [slot(0), my(145), slot(1), my(145)]),
            (0.048, [slot(0), my(170), slot(1), my(170)]),
        ]
        for (k, (t, events)) in frames.enumerated() { frame(t, events, k < 3 ? .matching : .none) }
        #expect(clone.frames.map(\.events) == frames.map { $0.1 + [syn] })
        // Released at 0.036 keeping their 12 ms spacing, 36 ms late.
        assertDues([0.036, 0.048, 0.06, 0.072, 0.084])
    }

    @Test func timeAloneCanReleaseOrConsume() {
        // A hold consumer: one frame, then time passes.
        frame(0.000, [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), key(BTN.TOUCH, 1), key(toolDouble, 1)], .matching)
        arbiter.update(.matching, at: 0.3)
        #expect(clone.frames.isEmpty)
        arbiter.update(.began, at: 0.5)
        #expect(clone.decisions.last == .consumed(t: 0.5, frames: 1))
        // A double tap whose second tap never came: released when it times out, after the lift.
        reset()
        frame(0.000, [slot(0), tid(1), mx(100), my(100), key(BTN.TOUCH, 1), key(toolFinger, 1)], .matching)
        frame(0.050, [slot(0), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0)], .matching)
        #expect(clone.frames.isEmpty)
        arbiter.update(.none, at: 0.35)
        assertDues([0.35, 0.4])
        #expect(clone.decisions == [.held(t: 0), .released(t: 0.35, frames: 2, lag: 0.35),
                                         .touch(t: 0.35, passed: 2, held: 2, consumed: 0)])
    }

    @Test func aConsumerThatNeverDecidesHoldsAtMostTwoSeconds() {
        frame(0.0, [slot(0), tid(1), mx(100), my(100), key(BTN.TOUCH, 1), key(toolFinger, 1)], .matching)
        for k in 1...200 { frame(Double(k) * 0.01, [mx(Int32(100 + k))], .matching) }
        #expect(clone.frames.count == 0)
        frame(2.01, [mx(400)], .matching)
        #expect(clone.frames.count == 202)
        frame(2.02, [mx(401)], .matching)
        #expect(clone.frames.count == 203)
        #expect(abs(clone.frames.last!.due - (4.03)) < 1e-9)
    }

    @Test func synDroppedMidTouchLiftsEverythingTheCloneHoldsAndWaitsForTheNextTouch() {
        frame(0.000, [slot(0), tid(1), mx(100), my(500), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        frame(0.010, [key(BTN.LEFT, 1)])
        // SYN_DROPPED: the button's release and the lift are lost with the events after it.
        for e in [Ev(EV.SYN, SYN.DROPPED, 0), key(BTN.LEFT, 0), syn] {
            _ = arbiter.take(InputEventRecord(sec: 0, usec: 20_000, type: e.type, code: e.code, value: e.value))
        }
        arbiter.decide(.none, at: 0.02)
        #expect(clone.frames.last!.events == [slot(0), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0), key(BTN.LEFT, 0), syn])
        frame(0.030, [mx(130)])
        #expect(clone.frames.count == 3)
        // The lift was lost too: the next touch's BTN_TOUCH 1 says it began.
        frame(0.500, [slot(0), tid(2), mx(400), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        frame(0.510, [mx(410)])
        #expect(clone.frames.count == 5)
        #expect(clone.frames[3].events == [slot(0), tid(2), mx(400), key(BTN.TOUCH, 1), key(toolFinger, 1), syn])
        #expect(clone.decisions.first == .lifted(t: 0.02, fingers: 1, buttons: 1, why: "dropped"))
    }

    @Test func aDeviceTakenOverMidTouchPassesNothingUntilIdle() {
        let down = [slot(0), tid(4), mx(100), my(100), key(BTN.TOUCH, 1), key(toolFinger, 1)]
        arbiter = TouchArbiter(identity: padIdentity(), sink: clone,
                               state: down.map { InputEventRecord(sec: 0, usec: 0, type: $0.type, code: $0.code, value: $0.value) })
        frame(0.000, [slot(0), mx(120)])
        frame(0.010, [slot(0), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0)])
        #expect(clone.frames.isEmpty)
        frame(0.100, [slot(0), tid(5), mx(300), my(300), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        #expect(clone.frames.count == 1)
    }

    @Test func endLiftsWhatTheCloneHolds() {
        frame(0.000, [slot(1), tid(1), mx(100), my(500), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        frame(0.010, [key(BTN.LEFT, 1)])
        arbiter.end(at: 0.5)
        #expect(clone.frames.last!.events == [slot(1), tid(-1), key(BTN.TOUCH, 0), key(toolFinger, 0), key(BTN.LEFT, 0), syn])
        #expect(clone.frames.last!.due == 0.5)
    }

    @Test func afterAConsumedTouchTheCloneCatchesUpOnValuesTheDeviceDoesNotRepeat() {
        frame(0.000, [slot(0), tid(1), mx(100), my(100), slot(1), tid(2), mx(200), my(100), slot(2), tid(3), mx(300), my(100),
                      key(BTN.TOUCH, 1), key(toolTriple, 1)], .began)
        frame(0.010, [slot(0), mx(500), slot(1), mx(600), slot(2), mx(700)])
        frame(0.020, [slot(0), tid(-1), slot(1), tid(-1), slot(2), tid(-1), key(BTN.TOUCH, 0), key(toolTriple, 0)])
        #expect(clone.frames.isEmpty)
        // A new touch in slot 0 at x 500, which the kernel does not repeat; the device's slot is 2.
        frame(0.100, [slot(0), tid(9), my(300), key(BTN.TOUCH, 1), key(toolFinger, 1)])
        #expect(clone.frames[0].events == [mx(500), slot(0), tid(9), my(300), key(BTN.TOUCH, 1), key(toolFinger, 1), syn])
        frame(0.110, [my(310)])
        // The frame names no slot: the clone's slot is 0 again after the catch-up.
        #expect(clone.frames[1].events == [my(310), syn])
    }
}

final class CountingSink: CloneSink {
    var frames = 0
    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) { frames += 1 }
}
