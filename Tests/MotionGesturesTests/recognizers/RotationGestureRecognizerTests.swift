import Testing
import Foundation
import MotionStreams
@testable import MotionGestures

/// Pointer 2 at `radius` from the origin at `angle` (y down).
private func at(_ angle: Double, _ radius: Double = 100) -> (Double, Double) {
    (radius * cos(angle), radius * sin(angle))
}

/// Seed 002, paragraph by paragraph, then the decisions of reference.md.
@Suite struct RotationGestureRecognizerTests {
    @Test func isAGestureRecognizer() throws {
        let element = Element(x: 0, y: 0, width: 10, height: 10)
        let recognizer: GestureRecognizer = try RotationGestureRecognizer(element: element)
        #expect(recognizer.value.kind == .rotation)
        #expect(recognizer.element === element)
        #expect(recognizer.isEnabled)
        #expect(recognizer.state == .possible)
    }

    @Test func rotationAPI() throws {
        let rotation = try RotationGestureRecognizer()
        #expect(rotation.value.rotation == 0)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 0, 100)))
        rotation.handle(frame(0.016, (2, .move, -100, 0)))  // from straight down to left: +π/2
        #expect(close(rotation.value.rotation, Double.pi / 2, 1e-12))
    }

    @Test func recognitionThresholdAPI() throws {
        #expect(try RotationGestureRecognizer().threshold == Double.pi / 36)
        #expect(try RotationGestureRecognizer(threshold: 0.25).threshold == 0.25)
    }

    @Test func eventAlgorithmRotationIsTheAngleFromTheReferenceVectorToTheNewVector() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 100)))
        rotation.handle(frame(0.016, (2, .move, 105, 607)))
        #expect(log.states == [.began])
        #expect(close(log.last!.rotation, atan2(607, 105) - atan2(100, 100), 1e-12))
    }

    @Test func clockwiseOnScreenIsPositive() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 100)))  // y down: a quarter turn clockwise
        #expect(close(log.last!.rotation, Double.pi / 2, 1e-12))
    }

    @Test func aFullTurnReadsTwoPiWithoutAJumpAtPi() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        for k in 1...16 {
            let (x, y) = at(Double(k) * Double.pi / 8)
            rotation.handle(frame(0.016 * Double(k), (2, .move, x, y)))
        }
        let values = log.values.map(\.rotation)
        #expect(close(values.last!, 2 * Double.pi, 1e-9))
        #expect(zip(values, values.dropFirst()).allSatisfy { $1 > $0 })
        #expect(values.contains { close($0, 9 * Double.pi / 8, 1e-9) })
    }

    @Test func theThresholdGatesBeganOnlyAndValuesAreNotReduced() throws {
        let rotation = try RotationGestureRecognizer(threshold: 0.5)
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        let (x1, y1) = at(0.3)
        rotation.handle(frame(0.016, (2, .move, x1, y1)))
        #expect(log.states.isEmpty)
        let (x2, y2) = at(0.6)
        rotation.handle(frame(0.032, (2, .move, x2, y2)))
        #expect(log.states == [.began])
        #expect(close(log.last!.rotation, 0.6, 1e-12))
    }

    @Test func aThirdPointerDoesNotChangeTheValue() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 100)))
        rotation.handle(frame(0.032, (3, .down, 500, 500)))
        rotation.handle(frame(0.048, (3, .move, 900, -300)))
        #expect(log.values.map(\.state) == [.began, .changed, .changed])
        #expect(log.values.allSatisfy { close($0.rotation, Double.pi / 2, 1e-12) })
        #expect(log.last?.pointers == 3)
    }

    @Test func whenOneOfThePairLiftsTheThirdTakesItsPlaceWithoutAJump() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 100)))  // π/2
        rotation.handle(frame(0.032, (3, .down, 0, 300)))
        rotation.handle(frame(0.048, (1, .up, 0, 0)))       // pair is now 2 → 3, pointing down
        #expect(close(log.last!.rotation, Double.pi / 2, 1e-12))
        #expect(log.last?.state == .changed)
        // Turn the new pair (2 at (0,100) → 3) a quarter turn clockwise: 3 goes to (−200, 100).
        rotation.handle(frame(0.064, (3, .move, -200, 100)))
        #expect(close(log.last!.rotation, Double.pi, 1e-12))
        rotation.handle(frame(0.080, (3, .up, -200, 100)))
        #expect(log.states == [.began, .changed, .changed, .changed, .ended])
        #expect(close(log.last!.rotation, Double.pi, 1e-12))
    }

    @Test func completedGestureEndsWhenFewerThanTwoPointersRemain() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 100)))
        rotation.handle(frame(0.032, (2, .move, -100, 0)))
        rotation.handle(frame(0.048, (2, .up, -100, 0)))
        #expect(log.states == [.began, .changed, .ended])
        #expect(close(log.last!.rotation, Double.pi, 1e-12))
        #expect(rotation.value.rotation == 0)
        // The remaining pointer starts nothing until a new pointer goes down.
        rotation.handle(frame(0.064, (1, .move, 10, 0)))
        rotation.handle(frame(0.080, (1, .up, 10, 0)))
        #expect(log.states == [.began, .changed, .ended])
    }

    @Test func endingBeforeTheThresholdIsFailed() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 100, 1)))
        rotation.handle(frame(0.032, (1, .up, 0, 0), (2, .up, 100, 1)))
        #expect(log.states == [.failed])
        // One pointer alone never forms a pair: lifting it fails too.
        rotation.handle(frame(1, (3, .down, 0, 0)))
        rotation.handle(frame(1.1, (3, .up, 0, 0)))
        #expect(log.states == [.failed, .failed])
    }

    @Test func inputCancelIsCancelled() throws {
        let rotation = try RotationGestureRecognizer()
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 100)))
        rotation.handle(frame(0.032, (1, .cancel, 0, 0)))
        #expect(log.states == [.began, .cancelled])
    }

    @Test func velocityAPIIsInRadiansPerSecond() throws {
        let rotation = try RotationGestureRecognizer(threshold: 0)
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        for k in 1...10 {
            let (x, y) = at(0.01 * Double(k))
            rotation.handle(frame(0.016 * Double(k), (2, .move, x, y)))
        }
        #expect(close(log.last!.scalarVelocity, 0.625, 1e-6))
    }

    @Test func onlyPointersThatGoDownInsideTheElementFormThePair() throws {
        let rotation = try RotationGestureRecognizer(element: Element(x: 0, y: 0, width: 200, height: 200))
        let log = GestureLog(rotation)
        rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 500, 0), (3, .down, 100, 0)))
        rotation.handle(frame(0.016, (2, .move, 0, 500), (3, .move, 0, 100)))
        #expect(log.last?.pointers == 2)
        #expect(close(log.last!.rotation, Double.pi / 2, 1e-12))
    }

    @Test func outOfRangeThresholdThrows() {
        #expect { try RotationGestureRecognizer(threshold: -0.1) } throws: {
            ($0 as? RecognizerOptionError)?.option == "threshold"
        }
        #expect(RotationGestureRecognizer.defaultThreshold == Double.pi / 36)
    }
}
