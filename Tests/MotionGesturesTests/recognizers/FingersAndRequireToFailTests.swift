import Testing
import MotionStreams
@testable import MotionGestures

private func dispatcher(_ recognizers: GestureRecognizer...) -> PointerDispatcher {
    let dispatcher = PointerDispatcher()
    recognizers.forEach(dispatcher.add)
    return dispatcher
}

@Suite struct FingersTests {
    @Test func aThreeFingerPanBeginsOnlyWithThreeAndIsCancelledByAFourth() throws {
        let pan = try TranslationGestureRecognizer(threshold: 10)
        pan.fingers = 3
        let log = GestureLog(pan)
        let input = dispatcher(pan)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 40, 0)))
        input.dispatch(frame(0.1, (1, .move, 50, 0), (2, .move, 90, 0)))  // two fingers: nothing
        #expect(log.states.isEmpty)
        input.dispatch(frame(0.2, (3, .down, 130, 0)))
        input.dispatch(frame(0.3, (1, .move, 61, 0), (2, .move, 101, 0), (3, .move, 141, 0)))
        #expect(log.states == [.began])
        #expect(log.last?.translation == Point(x: 11, y: 0))  // from where the third landed
        input.dispatch(frame(0.4, (4, .down, 200, 0)))
        #expect(log.states == [.began, .cancelled])
        input.dispatch(frame(0.5, (1, .move, 300, 0), (2, .move, 340, 0), (3, .move, 380, 0), (4, .move, 420, 0)))
        input.dispatch(frame(0.6, (4, .up, 420, 0)))
        input.dispatch(frame(0.7, (1, .move, 400, 0), (2, .move, 440, 0), (3, .move, 480, 0)))
        #expect(log.states == [.began, .cancelled])  // ignored until every finger lifted
        input.dispatch(frame(0.8, (1, .up, 400, 0), (2, .up, 440, 0), (3, .up, 480, 0)))
        input.dispatch(frame(1, (5, .down, 0, 0), (6, .down, 40, 0), (7, .down, 80, 0)))
        input.dispatch(frame(1.1, (5, .move, 20, 0), (6, .move, 60, 0), (7, .move, 100, 0)))
        #expect(log.states == [.began, .cancelled, .began])
    }

    @Test func aTwoFingerTapNeedsExactlyTwo() throws {
        let two = try TapGestureRecognizer()
        two.fingers = 2
        let log = GestureLog(two)
        let input = dispatcher(two)
        input.dispatch(frame(0, (1, .down, 0, 0)))
        input.dispatch(frame(0.1, (1, .up, 0, 0)))  // one finger
        input.dispatch(frame(1, (1, .down, 0, 0), (2, .down, 40, 0)))
        input.dispatch(frame(1.1, (1, .up, 0, 0), (2, .up, 40, 0)))  // two
        input.dispatch(frame(2, (1, .down, 0, 0), (2, .down, 40, 0), (3, .down, 80, 0)))
        input.dispatch(frame(2.1, (1, .up, 0, 0), (2, .up, 40, 0), (3, .up, 80, 0)))  // three
        #expect(log.states == [.failed, .recognized, .failed])
        #expect(log.values.map(\.t) == [0.1, 1.1, 2])
        #expect(log.values.map(\.pointers) == [1, 2, 3])
    }

    @Test func aPinchWithFingersTwoIsCancelledByAThird() throws {
        let pinch = try ScaleGestureRecognizer()
        pinch.fingers = 2
        let log = GestureLog(pinch)
        let input = dispatcher(pinch)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        input.dispatch(frame(0.1, (2, .move, 200, 0)))
        input.dispatch(frame(0.2, (3, .down, 300, 300)))
        #expect(log.states == [.began, .cancelled])
        #expect(log.values.map(\.scale) == [2, 2])
    }

    @Test func theEndedValueReportsThePointersTheGestureHad() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        let input = dispatcher(pan)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 40, 0)))
        input.dispatch(frame(0.1, (1, .move, 50, 0), (2, .move, 90, 0)))
        input.dispatch(frame(0.2, (1, .up, 50, 0), (2, .up, 90, 0)))
        #expect(log.states == [.began, .ended])
        #expect(log.values.map(\.pointers) == [2, 2])
    }
}

@Suite struct RequireToFailTests {
    @Test func aPanWaitsForAHoldToFailAndBeginsWhenItDoes() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let pan = try TranslationGestureRecognizer(threshold: 5)
        pan.require(toFail: hold)
        let panLog = GestureLog(pan)
        let input = dispatcher(hold, pan)
        input.dispatch(frame(0, (1, .down, 0, 0)))
        input.dispatch(frame(0.1, (1, .move, 8, 0)))  // past the pan's threshold, within the hold's
        #expect(panLog.states.isEmpty)
        input.dispatch(frame(0.2, (1, .move, 9, 0)))
        input.dispatch(frame(0.3, (1, .move, 30, 0)))  // the hold fails: the pan reports what it held
        #expect(panLog.states == [.began, .changed])
        #expect(panLog.values.map(\.t) == [0.3, 0.3])
        #expect(panLog.values.map(\.translation.x) == [9, 30])
        input.dispatch(frame(0.4, (1, .up, 40, 0)))
        #expect(panLog.states == [.began, .changed, .ended])
    }

    @Test func aPanFailsWhenTheHoldItWaitsForBegins() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let pan = try TranslationGestureRecognizer(threshold: 5)
        pan.require(toFail: hold)
        let panLog = GestureLog(pan), holdLog = GestureLog(hold)
        let input = dispatcher(hold, pan)
        input.dispatch(frame(0, (1, .down, 0, 0)))
        input.dispatch(frame(0.1, (1, .move, 8, 0)))
        input.dispatch(frame(0.6, (1, .move, 9, 0)))
        input.dispatch(frame(0.7, (1, .up, 9, 0)))
        #expect(holdLog.states == [.began, .changed, .ended])
        #expect(panLog.states == [.failed])
        #expect(panLog.last?.t == 0.5)
    }

    @Test func aSwipeAndAPinchMadeExclusive() throws {
        let pinch = try ScaleGestureRecognizer()
        pinch.fingers = 2
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        swipe.require(toFail: pinch)
        let swipeLog = GestureLog(swipe), pinchLog = GestureLog(pinch)
        let input = dispatcher(pinch, swipe)
        // Two fingers spreading: a pinch, so no swipe.
        input.dispatch(frame(0, (1, .down, 100, 100), (2, .down, 200, 100)))
        input.dispatch(frame(0.1, (1, .move, 0, 100), (2, .move, 300, 100)))
        input.dispatch(frame(0.2, (1, .up, 0, 100), (2, .up, 300, 100)))
        #expect(pinchLog.states == [.began, .ended])
        #expect(swipeLog.states == [.failed])
        // Two fingers moving together: the pinch fails at the lift, then the swipe is reported.
        input.dispatch(frame(1, (1, .down, 100, 100), (2, .down, 200, 100)))
        input.dispatch(frame(1.1, (1, .move, 250, 100), (2, .move, 350, 100)))
        input.dispatch(frame(1.2, (1, .up, 400, 100), (2, .up, 500, 100)))
        #expect(pinchLog.states == [.began, .ended, .failed])
        #expect(swipeLog.states == [.failed, .recognized])
        #expect(swipeLog.last?.direction == .right)
    }

    /// Issue 22: the docs' `swipe3 = motion.swipe{…, requireToFail = hold}` was decided when the
    /// last finger lifted (the failed hold still "in progress" while its fingers were down).
    @Test func aSwipeWaitingForAFailedHoldIsDecidedAtTheFirstLift() throws {
        let hold = try HoldGestureRecognizer(fingers: 3, duration: 0.6, maxMovement: 3)
        let swipe = try SwipeGestureRecognizer(fingers: 3, minDistance: 20)
        swipe.require(toFail: hold)
        let swipeLog = GestureLog(swipe), holdLog = GestureLog(hold)
        let input = dispatcher(hold, swipe)
        input.dispatch(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10)))
        input.dispatch(frame(0.04, (1, .move, 0, 10), (2, .move, 10, 10), (3, .move, 20, 10)))
        #expect(holdLog.states == [.failed])
        input.dispatch(frame(0.1, (1, .move, -20, 10), (2, .move, -10, 10), (3, .move, 0, 10)))
        // The first finger lifts; the other two rest on the pad for another 1.26 s.
        input.dispatch(frame(0.14, (1, .up, -20, 10)))
        #expect(swipeLog.states == [.recognized])
        #expect(swipeLog.last?.t == 0.14)
        #expect(swipeLog.last?.direction == .left)
        input.dispatch(frame(1.4, (2, .up, -10, 10), (3, .up, 0, 10)))
        #expect(swipeLog.states == [.recognized])
    }

    /// A recognizer that waits reports what it held back as soon as its rival fails, stamped with
    /// the time of the failure, while the rival's fingers stay down.
    @Test func aHeldSwipeIsReleasedWhenTheRivalFailsAtTheSameLift() throws {
        let hold = try HoldGestureRecognizer(fingers: 2, duration: 0.6, maxMovement: 3)
        let swipe = try SwipeGestureRecognizer(fingers: 2, minDistance: 20)
        swipe.require(toFail: hold)
        let swipeLog = GestureLog(swipe)
        let input = dispatcher(swipe, hold)  // the swipe decides first, while the hold is still possible
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 10, 0)))
        input.dispatch(frame(0.1, (1, .move, 2, 30), (2, .move, 12, 30)))
        input.dispatch(frame(0.2, (1, .up, 2, 30)))
        #expect(swipeLog.states == [.recognized])
        #expect(swipeLog.last?.t == 0.2)
        #expect(swipeLog.last?.direction == .down)
    }
}

