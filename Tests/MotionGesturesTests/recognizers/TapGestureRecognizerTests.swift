import Testing
import MotionStreams
@testable import MotionGestures

/// A dispatcher driving `recognizers`, in that order.
private func dispatcher(_ recognizers: GestureRecognizer...) -> PointerDispatcher {
    let dispatcher = PointerDispatcher()
    recognizers.forEach(dispatcher.add)
    return dispatcher
}

@Suite struct TapGestureRecognizerTests {
    @Test func aTapIsRecognizedWhenItsPointersLiftInTime() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.125, (1, .up, 12, 10)))
        #expect(log.states == [.recognized])
        #expect(log.last?.centroid == Point(x: 12, y: 10))
        #expect(log.last?.taps == 1)
        #expect(log.last?.t == 0.125)
    }

    @Test func liftingAtExactlyMaxDurationCounts() throws {
        let tap = try TapGestureRecognizer()  // 0.3 s
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0.1, (1, .down, 10, 10)))
        input.dispatch(frame(0.4, (1, .up, 10, 10)))
        #expect(log.states == [.recognized])
    }

    @Test func liftingJustAfterMaxDurationFailsAtTheDeadline() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.301, (1, .up, 10, 10)))
        #expect(log.states == [.failed])
        #expect(log.last?.t == 0.3)
    }

    @Test func aPointerHeldPastMaxDurationFailsAtTheEndOfInput() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        #expect(log.states.isEmpty)
        input.finish()
        #expect(log.states == [.failed])
        #expect(log.last?.t == 0.3)
    }

    @Test func movingExactlyMaxMovementCountsAndFurtherFails() throws {
        let tap = try TapGestureRecognizer(maxMovement: 10)
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.0625, (1, .move, 16, 18)))  // exactly 10 away
        input.dispatch(frame(0.125, (1, .up, 16, 18)))
        #expect(log.states == [.recognized])
        input.dispatch(frame(1, (1, .down, 10, 10)))
        input.dispatch(frame(1.0625, (1, .move, 20.5, 10)))
        #expect(log.states == [.recognized, .failed])
        #expect(log.last?.t == 1.0625)
        input.dispatch(frame(1.125, (1, .up, 10, 10)))  // the failed tap's lift counts for nothing
        #expect(log.states == [.recognized, .failed])
    }

    @Test func aDoubleTapStartingExactlyOneIntervalAfterTheLiftIsRecognized() throws {
        let tap = try TapGestureRecognizer(taps: 2)
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        #expect(log.states.isEmpty)
        input.dispatch(frame(0.4, (1, .down, 12, 10)))  // 0.1 + 0.3
        input.dispatch(frame(0.5, (1, .up, 12, 10)))
        #expect(log.states == [.recognized])
        #expect(log.last?.taps == 2)
        #expect(log.last?.centroid == Point(x: 12, y: 10))
    }

    @Test func aSecondTapJustAfterTheIntervalFailsTheSequenceAndStartsAnother() throws {
        let tap = try TapGestureRecognizer(taps: 2)
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        input.dispatch(frame(0.41, (1, .down, 10, 10)))
        #expect(log.states == [.failed])
        #expect(log.last?.t == 0.4)
        #expect(log.last?.taps == 1)
        input.dispatch(frame(0.5, (1, .up, 10, 10)))
        input.dispatch(frame(0.625, (1, .down, 10, 10)))
        input.dispatch(frame(0.75, (1, .up, 10, 10)))
        #expect(log.states == [.failed, .recognized])
    }

    @Test func aSequenceWaitingForItsNextTapFailsAtTheEndOfInput() throws {
        let tap = try TapGestureRecognizer(taps: 2)
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.25, (1, .up, 10, 10)))
        input.finish()
        #expect(log.states == [.failed])
        #expect(log.last?.t == 0.55)
    }

    @Test func aFrameForOtherPointersAdvancesTimeForATapWaitingOnItsInterval() throws {
        let tap = try TapGestureRecognizer(element: Element(x: 0, y: 0, width: 100, height: 100), taps: 2)
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.25, (1, .up, 10, 10)))
        input.dispatch(frame(1, (2, .down, 500, 500)))  // outside the element
        #expect(log.states == [.failed])
        #expect(log.last?.t == 0.55)
    }

    @Test func aMultiPointerTapLocatesAtTheCentroidOfItsLifts() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        input.dispatch(frame(0.0625, (1, .up, 0, 0)))
        #expect(log.states.isEmpty)
        input.dispatch(frame(0.125, (2, .up, 100, 0)))
        #expect(log.states == [.recognized])
        #expect(log.last?.centroid == Point(x: 50, y: 0))
    }

    @Test func inputCancelFails() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.0625, (1, .cancel, 10, 10)))
        #expect(log.states == [.failed])
    }

    @Test func onlyPointersThatGoDownInsideTheElementCount() throws {
        let tap = try TapGestureRecognizer(element: Element(x: 100, y: 100, width: 50, height: 50))
        let log = GestureLog(tap)
        let input = dispatcher(tap)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.0625, (1, .up, 10, 10)))
        input.dispatch(frame(1, (1, .down, 120, 120)))
        input.dispatch(frame(1.0625, (1, .up, 120, 120)))
        #expect(log.states == [.recognized])
        #expect(log.last?.location(in: tap.element) == Point(x: 20, y: 20))
    }

    @Test func singleAndDoubleTapRecognizersWithoutARelationBothRecognize() throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        let singleLog = GestureLog(single)
        let doubleLog = GestureLog(double)
        let input = dispatcher(single, double)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        input.dispatch(frame(0.2, (1, .down, 10, 10)))
        input.dispatch(frame(0.3, (1, .up, 10, 10)))
        #expect(singleLog.states == [.recognized, .recognized])
        #expect(doubleLog.states == [.recognized])
    }

    @Test(arguments: [true, false])
    func aSingleTapThatRequiresTheDoubleTapToFailWaitsForIt(singleFirst: Bool) throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        single.require(toFail: double)
        let singleLog = GestureLog(single)
        let doubleLog = GestureLog(double)
        let input = singleFirst ? dispatcher(single, double) : dispatcher(double, single)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        #expect(singleLog.states.isEmpty)  // waiting: the double tap is in progress
        input.dispatch(frame(1, (1, .down, 50, 50)))  // the double tap's interval ran out at 0.4
        #expect(doubleLog.states == [.failed])
        #expect(singleLog.states == [.recognized])
        #expect(singleLog.last?.t == 0.4)
        #expect(singleLog.last?.centroid == Point(x: 10, y: 10))
        // The tap that started at 1 is counted as a tap of its own.
        input.dispatch(frame(1.1, (1, .up, 50, 50)))
        input.finish()
        #expect(doubleLog.states == [.failed, .failed])
        #expect(singleLog.states == [.recognized, .recognized])
        #expect(close(singleLog.last!.t, 1.4))
    }

    @Test(arguments: [true, false])
    func aSingleTapThatRequiresTheDoubleTapToFailFailsWhenItIsRecognized(singleFirst: Bool) throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        single.require(toFail: double)
        let singleLog = GestureLog(single)
        let doubleLog = GestureLog(double)
        let input = singleFirst ? dispatcher(single, double) : dispatcher(double, single)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        input.dispatch(frame(0.2, (1, .down, 10, 10)))
        input.dispatch(frame(0.3, (1, .up, 10, 10)))
        input.finish()
        #expect(doubleLog.states == [.recognized])
        #expect(singleLog.states == [.failed])
    }

    @Test func aSingleTapDoesNotWaitForARequirementThatIsIdle() throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(element: Element(x: 500, y: 500, width: 10, height: 10), taps: 2)
        single.require(toFail: double)
        let singleLog = GestureLog(single)
        let input = dispatcher(single, double)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        #expect(singleLog.states == [.recognized])
    }

    @Test func aWaitingSingleTapIsRecognizedWhenItsRequirementIsDisabled() throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        single.require(toFail: double)
        let singleLog = GestureLog(single)
        let input = dispatcher(single, double)
        input.dispatch(frame(0, (1, .down, 10, 10)))
        input.dispatch(frame(0.1, (1, .up, 10, 10)))
        double.isEnabled = false
        input.advance(to: 0.2)
        #expect(singleLog.states == [.recognized])
        #expect(singleLog.last?.t == 0.1)
    }

    @Test func outOfRangeOptionsThrowNamingTheOption() {
        func option(_ make: () throws -> TapGestureRecognizer) -> String? {
            do { _ = try make(); return nil } catch { return (error as? RecognizerOptionError)?.option }
        }
        #expect(option { try TapGestureRecognizer(taps: 0) } == "taps")
        #expect(option { try TapGestureRecognizer(maxDuration: 0) } == "maxDuration")
        #expect(option { try TapGestureRecognizer(maxMovement: -1) } == "maxMovement")
        #expect(option { try TapGestureRecognizer(interval: -0.1) } == "interval")
        #expect(option { try TapGestureRecognizer(taps: 3, maxDuration: 1, maxMovement: 0, interval: 0) } == nil)
    }
}
