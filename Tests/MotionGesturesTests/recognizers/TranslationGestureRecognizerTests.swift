import Testing
import MotionStreams
@testable import MotionGestures

@Suite struct TranslationGestureRecognizerTests {
    @Test func thresholdGatesBeganOnlyAndIsStrict() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 100, 100)))
        pan.handle(frame(0.016, (1, .move, 103, 104)))  // exactly 5 (the default, issue 22): not yet
        #expect(log.states.isEmpty)
        pan.handle(frame(0.032, (1, .move, 106, 100)))
        #expect(log.states == [.began])
        // The value is not reduced by the threshold: measured from where the pointer went down.
        #expect(log.last?.translation == Point(x: 6, y: 0))
    }

    @Test func completedGestureIsBeganChangedEnded() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 100, 100)))
        pan.handle(frame(0.016, (1, .move, 120, 100)))
        pan.handle(frame(0.032, (1, .move, 130, 90)))
        pan.handle(frame(0.048, (1, .up, 130, 90)))
        #expect(log.states == [.began, .changed, .ended])
        #expect(log.values.map(\.translation) == [Point(x: 20, y: 0), Point(x: 30, y: -10), Point(x: 30, y: -10)])
        #expect(pan.state == .ended)
        pan.handle(frame(1, (2, .down, 0, 0)))
        #expect(pan.state == .possible)  // silent reset after a final state
    }

    @Test func endingBeforeTheThresholdIsFailed() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 100, 100)))
        pan.handle(frame(0.016, (1, .move, 105, 100)))
        pan.handle(frame(0.032, (1, .up, 105, 100)))
        #expect(log.states == [.failed])
    }

    @Test func inputCancelIsCancelledAfterBeganAndFailedBefore() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 0, 0)))
        pan.handle(frame(0.016, (1, .move, 50, 0)))
        pan.handle(frame(0.032, (1, .cancel, 50, 0)))
        pan.handle(frame(1, (2, .down, 0, 0)))
        pan.handle(frame(1.016, (2, .cancel, 0, 0)))
        #expect(log.states == [.began, .cancelled, .failed])
    }

    @Test func aSecondPointerJoiningOrLeavingDoesNotMoveTheTranslation() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 100, 100)))
        pan.handle(frame(0.016, (1, .move, 120, 100)))
        pan.handle(frame(0.032, (2, .down, 300, 300)))
        #expect(log.last?.translation == Point(x: 20, y: 0))
        #expect(log.last?.pointers == 2)
        pan.handle(frame(0.048, (1, .move, 130, 100), (2, .move, 310, 300)))
        #expect(log.last?.translation == Point(x: 30, y: 0))
        pan.handle(frame(0.064, (2, .up, 310, 300)))
        #expect(log.last?.translation == Point(x: 30, y: 0))
        pan.handle(frame(0.080, (1, .move, 140, 100)))
        #expect(log.last?.translation == Point(x: 40, y: 0))
        #expect(log.states == [.began, .changed, .changed, .changed, .changed])
    }

    @Test func velocityOfTenUnitsEvery16msIs625() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 0, 0)))
        for k in 1...10 {
            pan.handle(frame(0.016 * Double(k), (1, .move, 10 * Double(k), 0)))
        }
        #expect(close(log.last!.velocity.x, 625, 1e-6))
        #expect(close(log.last!.velocity.y, 0, 1e-9))
    }

    @Test func minPointersHoldsBackBegan() throws {
        let pan = try TranslationGestureRecognizer(minPointers: 2)
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 0, 0)))
        pan.handle(frame(0.016, (1, .move, 50, 0)))
        #expect(log.states.isEmpty)
        // Movement with fewer than minPointers does not count: translation starts from here.
        pan.handle(frame(0.032, (2, .down, 100, 0)))
        #expect(log.states.isEmpty)
        pan.handle(frame(0.048, (1, .move, 70, 0), (2, .move, 120, 0)))
        #expect(log.states == [.began])
        #expect(log.last?.translation == Point(x: 20, y: 0))
    }

    @Test func maxPointersLeavesExtraPointersUntracked() throws {
        let pan = try TranslationGestureRecognizer(maxPointers: 1)
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 100)))
        pan.handle(frame(0.016, (1, .move, 20, 0), (2, .move, 500, 500)))
        #expect(log.last?.pointers == 1)
        #expect(log.last?.translation == Point(x: 20, y: 0))
    }

    @Test func onlyPointersThatGoDownInsideTheElementAreTracked() throws {
        let element = Element(x: 100, y: 100, width: 100, height: 100)
        let pan = try TranslationGestureRecognizer(element: element)
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 50, 50)))
        pan.handle(frame(0.016, (1, .move, 150, 150)))
        #expect(log.states.isEmpty)
        #expect(pan.pointers.isEmpty)
        pan.handle(frame(0.032, (2, .down, 150, 150)))
        pan.handle(frame(0.048, (2, .move, 250, 150)))  // may leave the element once tracked
        #expect(log.states == [.began])
        #expect(log.last?.translation(in: element) == Point(x: 100, y: 0))
    }

    @Test func disablingCancelsAnActiveGestureAndStopsTakingPointers() throws {
        let pan = try TranslationGestureRecognizer()
        let log = GestureLog(pan)
        pan.handle(frame(0, (1, .down, 0, 0)))
        pan.handle(frame(0.016, (1, .move, 50, 0)))
        pan.isEnabled = false
        pan.handle(frame(0.032, (1, .move, 60, 0)))
        pan.handle(frame(0.048, (2, .down, 0, 0)))
        pan.handle(frame(0.064, (2, .move, 60, 0)))
        #expect(log.states == [.began, .cancelled])
        #expect(pan.state == .possible)
    }

    @Test func outOfRangeOptionsThrowNamingTheOption() {
        #expect(throws: RecognizerOptionError(option: "threshold", value: "-1.0", requirement: ">= 0 and finite")) {
            try TranslationGestureRecognizer(threshold: -1)
        }
        #expect { try TranslationGestureRecognizer(minPointers: 0) } throws: {
            ($0 as? RecognizerOptionError)?.option == "minPointers"
        }
        #expect { try TranslationGestureRecognizer(minPointers: 3, maxPointers: 2) } throws: {
            ($0 as? RecognizerOptionError)?.option == "maxPointers"
        }
        #expect("\(RecognizerOptionError(option: "taps", value: "0", requirement: ">= 1"))" == "taps must be >= 1 (got 0)")
    }
}
