import Testing
import MotionStreams
@testable import MotionGestures

private func dispatcher(_ recognizers: GestureRecognizer...) -> PointerDispatcher {
    let dispatcher = PointerDispatcher()
    recognizers.forEach(dispatcher.add)
    return dispatcher
}

@Suite struct HoldGestureRecognizerTests {
    @Test func aHoldBeginsWhenTheDurationHasPassedAndEndsOnLift() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)  // 0.5 s
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        input.dispatch(frame(0.25, (1, .down, 100, 100)))
        input.dispatch(frame(0.5, (1, .move, 103, 104)))
        #expect(log.states.isEmpty)
        input.dispatch(frame(1.5, (1, .up, 103, 104)))  // the next frame comes a second later
        #expect(log.states == [.began, .ended])
        #expect(log.values.map(\.t) == [0.75, 1.5])  // began when it fell due
        #expect(log.values[0].centroid == Point(x: 103, y: 104))
        #expect(log.last?.pointers == 1)
    }

    @Test func aHoldIsDecidedAtExactlyTheDuration() throws {
        let hold = try HoldGestureRecognizer(fingers: 1)
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.advance(to: 0.499)
        #expect(log.states.isEmpty)
        input.advance(to: 0.5)
        #expect(log.states == [.began])
        #expect(log.last?.t == 0.5)
    }

    @Test func aLiveHostKnowsWhenTheHoldFallsDue() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, duration: 0.5)
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        #expect(input.nextDueTime == nil)
        input.dispatch(frame(0.25, (1, .down, 100, 100)))
        #expect(input.nextDueTime == 0.75)
        input.advance(to: 0.75)  // what a live host does when nothing else came
        #expect(log.states == [.began])
        #expect(input.nextDueTime == nil)
        input.dispatch(frame(1, (1, .up, 100, 100)))
        input.dispatch(frame(2, (2, .down, 0, 0)))
        input.dispatch(frame(2.1, (2, .move, 30, 0)))  // moved too far: nothing waits any more
        #expect(input.nextDueTime == nil)
    }

    @Test func theEndOfInputDecidesAHoldStillDown() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, duration: 0.8)
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        input.dispatch(frame(0.1, (1, .down, 100, 100)))
        input.finish()
        #expect(log.states == [.began])
        #expect(close(log.last!.t, 0.9))
    }

    @Test func movingTooFarOrLiftingEarlyFails() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.2, (1, .move, 110, 100)))  // exactly 10: still a hold
        input.dispatch(frame(0.3, (1, .move, 110.5, 100)))
        input.dispatch(frame(1, (1, .up, 110.5, 100)))
        input.dispatch(frame(2, (2, .down, 0, 0)))
        input.dispatch(frame(2.4, (2, .up, 0, 0)))
        #expect(log.states == [.failed, .failed])
        #expect(log.values.map(\.t) == [0.3, 2.4])
    }

    @Test func aThreeFingerHoldCountsFromTheThirdFingerAndIgnoresTwoAndFour() throws {
        let three = try HoldGestureRecognizer(fingers: 3)
        let log = GestureLog(three)
        let input = dispatcher(three)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 40, 0)))
        input.dispatch(frame(0.3, (3, .down, 80, 0)))
        input.advance(to: 0.79)
        #expect(log.states.isEmpty)
        input.advance(to: 0.8)
        #expect(log.states == [.began])
        input.dispatch(frame(1, (4, .down, 120, 0)))  // a fourth finger: no longer this gesture
        #expect(log.states == [.began, .cancelled])
        #expect(log.last?.pointers == 4)
        input.dispatch(frame(1.1, (1, .up, 0, 0), (2, .up, 40, 0), (3, .up, 80, 0), (4, .up, 120, 0)))
        #expect(log.states == [.began, .cancelled])
    }

    @Test func movementAfterItBeganIsAChange() throws {
        let hold = try HoldGestureRecognizer(fingers: 1)
        let log = GestureLog(hold)
        let input = dispatcher(hold)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.6, (1, .move, 300, 100)))
        input.dispatch(frame(0.7, (1, .cancel, 300, 100)))
        #expect(log.states == [.began, .changed, .cancelled])
        #expect(log.values[1].centroid == Point(x: 300, y: 100))
    }
}
