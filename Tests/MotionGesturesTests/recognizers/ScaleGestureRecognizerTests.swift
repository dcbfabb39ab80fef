import Testing
import MotionStreams
@testable import MotionGestures

/// Seed 004, paragraph by paragraph, then the decisions of reference.md.
@Suite struct ScaleGestureRecognizerTests {
    @Test func isAGestureRecognizer() throws {
        let recognizer: GestureRecognizer = try ScaleGestureRecognizer()
        #expect(recognizer.value.kind == .scale)
        #expect(recognizer.element === Element.screen)
        #expect(recognizer.state == .possible)
    }

    @Test func scaleAPI() throws {
        let scale = try ScaleGestureRecognizer()
        #expect(scale.value.scale == 1)  // 1 when idle
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 30, 40)))
        scale.handle(frame(0.016, (2, .move, 60, 80)))
        #expect(close(scale.value.scale, 2, 1e-12))
    }

    @Test func recognitionThresholdAPI() throws {
        #expect(try ScaleGestureRecognizer().threshold == 0.05)
        #expect(try ScaleGestureRecognizer(threshold: 0.2).threshold == 0.2)
    }

    @Test func eventAlgorithmScaleIsTheRelativeLengthOfTheNewVector() throws {
        let scale = try ScaleGestureRecognizer()
        let log = GestureLog(scale)
        #expect(scale.value.scale == 1)
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 100)))
        scale.handle(frame(0.016, (2, .move, 605, 607)))
        #expect(log.states == [.began])
        #expect(close(log.last!.scale, Point(x: 605, y: 607).length / Point(x: 100, y: 100).length, 1e-12))
    }

    @Test func theThresholdIsRelativeAndGatesBeganOnly() throws {
        let scale = try ScaleGestureRecognizer()  // 0.05
        let log = GestureLog(scale)
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        scale.handle(frame(0.016, (2, .move, 104, 0)))  // 0.04: not yet
        #expect(log.states.isEmpty)
        scale.handle(frame(0.032, (2, .move, 90, 0)))
        #expect(log.states == [.began])
        #expect(close(log.last!.scale, 0.9, 1e-12))
    }

    @Test func pointerChangesReBaseMultiplicatively() throws {
        let scale = try ScaleGestureRecognizer()
        let log = GestureLog(scale)
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        scale.handle(frame(0.016, (2, .move, 200, 0)))
        scale.handle(frame(0.032, (3, .down, 0, 50)))
        #expect(close(log.last!.scale, 2, 1e-12))
        scale.handle(frame(0.048, (2, .up, 200, 0)))  // pair is now 1 → 3, length 50
        #expect(close(log.last!.scale, 2, 1e-12))
        scale.handle(frame(0.064, (3, .move, 0, 100)))
        #expect(close(log.last!.scale, 4, 1e-12))
    }

    @Test func statesForCompletedFailedAndCancelledGestures() throws {
        let scale = try ScaleGestureRecognizer()
        let log = GestureLog(scale)
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        scale.handle(frame(0.016, (2, .move, 150, 0)))
        scale.handle(frame(0.032, (2, .move, 200, 0)))
        scale.handle(frame(0.048, (1, .up, 0, 0), (2, .up, 200, 0)))
        #expect(log.states == [.began, .changed, .ended])
        #expect(close(log.last!.scale, 2, 1e-12))
        #expect(scale.value.scale == 1)

        scale.handle(frame(1, (1, .down, 0, 0), (2, .down, 100, 0)))
        scale.handle(frame(1.016, (2, .up, 101, 0)))
        scale.handle(frame(1.032, (1, .up, 0, 0)))
        #expect(log.states == [.began, .changed, .ended, .failed])

        scale.handle(frame(2, (1, .down, 0, 0), (2, .down, 100, 0)))
        scale.handle(frame(2.016, (2, .move, 300, 0)))
        scale.handle(frame(2.032, (2, .cancel, 300, 0)))
        #expect(log.states == [.began, .changed, .ended, .failed, .began, .cancelled])
    }

    @Test func velocityAPIIsTheScaleRatePerSecond() throws {
        let scale = try ScaleGestureRecognizer()
        let log = GestureLog(scale)
        scale.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        for k in 1...10 {
            scale.handle(frame(0.016 * Double(k), (2, .move, 100 + 10 * Double(k), 0)))
        }
        #expect(close(log.last!.scalarVelocity, 6.25, 1e-6))  // 0.1 every 16 ms
    }

    @Test func outOfRangeThresholdThrows() {
        #expect { try ScaleGestureRecognizer(threshold: -0.05) } throws: {
            ($0 as? RecognizerOptionError)?.option == "threshold"
        }
        #expect { try ScaleGestureRecognizer(threshold: .infinity) } throws: {
            ($0 as? RecognizerOptionError)?.option == "threshold"
        }
    }
}
