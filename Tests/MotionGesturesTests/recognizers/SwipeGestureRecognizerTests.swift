import Testing
import MotionStreams
@testable import MotionGestures

private func dispatcher(_ recognizers: GestureRecognizer...) -> PointerDispatcher {
    let dispatcher = PointerDispatcher()
    recognizers.forEach(dispatcher.add)
    return dispatcher
}

/// Three pointers 40 units apart, down at t0, moved by (dx, dy) in `steps` frames over
/// `duration`, then lifted together.
private func threeFingerSwipe(_ input: PointerDispatcher, t0: Double = 0, dx: Double, dy: Double,
                              duration: Double = 0.2, fingers: Int = 3, x: Double = 500, y: Double = 500) {
    let ids = Array(1...fingers)
    input.dispatch(Frame(t: t0, events: ids.map { PointerEvent(t: t0, id: $0, phase: .down, x: x + Double($0) * 40, y: y) }))
    for step in 1...4 {
        let t = t0 + duration * Double(step) / 4, f = Double(step) / 4
        let phase: PointerPhase = step == 4 ? .up : .move
        input.dispatch(Frame(t: t, events: ids.map {
            PointerEvent(t: t, id: $0, phase: phase, x: x + Double($0) * 40 + dx * f, y: y + dy * f)
        }))
    }
}

@Suite struct SwipeGestureRecognizerTests {
    @Test func aSwipeIsRecognizedOnceWithDirectionDistanceAndMeanSpeed() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        let log = GestureLog(swipe)
        threeFingerSwipe(dispatcher(swipe), dx: 300, dy: 20)
        #expect(log.states == [.recognized])
        let g = try #require(log.last)
        #expect(g.direction == .right)
        #expect(close(g.distance, (300.0 * 300 + 20 * 20).squareRoot()))
        #expect(close(g.scalarVelocity, g.distance / 0.2))
        #expect(g.t == 0.2)
        #expect(g.pointers == 3)  // the pointers the gesture had, not the 0 left
        #expect(g.translation == Point(x: 300, y: 20))
    }

    @Test func aStraightSwipeOf300In0_2sHasSpeed1500() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 1)  // one-finger swipes say so
        let log = GestureLog(swipe)
        let input = dispatcher(swipe)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.1, (1, .move, 250, 100)))
        input.dispatch(frame(0.2, (1, .up, 400, 100)))
        #expect(log.states == [.recognized])
        #expect(log.last?.direction == .right)
        #expect(log.last?.distance == 300)
        #expect(close(log.last!.scalarVelocity, 1500))
    }

    @Test(arguments: [(-300.0, 0.0, SwipeDirection.left), (0, -300, .up), (0, 300, .down), (200, -100, .right)])
    func directions(dx: Double, dy: Double, expected: SwipeDirection) throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        let log = GestureLog(swipe)
        threeFingerSwipe(dispatcher(swipe), dx: dx, dy: dy)
        #expect(log.last?.direction == expected)
    }

    @Test func diagonalsWhenAsked() throws {
        let swipe = try SwipeGestureRecognizer(diagonals: true)
        let log = GestureLog(swipe)
        threeFingerSwipe(dispatcher(swipe), dx: 200, dy: -180)
        #expect(log.last?.direction == .upRight)
        let plain = try SwipeGestureRecognizer()
        let plainLog = GestureLog(plain)
        threeFingerSwipe(dispatcher(plain), dx: 200, dy: -180)
        #expect(plainLog.last?.direction == .right)
    }

    @Test func aFourFingerSwipeNeverFiresTheThreeFingerOne() throws {
        let three = try SwipeGestureRecognizer(fingers: 3)
        let four = try SwipeGestureRecognizer(fingers: 4)
        let threeLog = GestureLog(three), fourLog = GestureLog(four)
        let input = dispatcher(three, four)
        // The fourth finger lands a frame after the other three, as real fingers do.
        input.dispatch(frame(0, (1, .down, 100, 100), (2, .down, 140, 100), (3, .down, 180, 100)))
        input.dispatch(frame(0.01, (4, .down, 220, 100)))
        input.dispatch(frame(0.1, (1, .move, 100, 0), (2, .move, 140, 0), (3, .move, 180, 0), (4, .move, 220, 0)))
        input.dispatch(frame(0.2, (1, .up, 100, -100), (2, .up, 140, -100), (3, .up, 180, -100), (4, .up, 220, -100)))
        #expect(threeLog.states == [.failed])
        #expect(threeLog.last?.t == 0.01)
        #expect(fourLog.states == [.recognized])
        #expect(fourLog.last?.direction == .up)
        #expect(fourLog.last?.distance == 200)  // from the 4th finger down at y 100 to the lift at -100
        #expect(fourLog.last?.pointers == 4)
    }

    @Test func fewerFingersThanRequiredFail() throws {
        let three = try SwipeGestureRecognizer(fingers: 3)
        let log = GestureLog(three)
        threeFingerSwipe(dispatcher(three), dx: 300, dy: 0, fingers: 2)
        #expect(log.states == [.failed])
        #expect(log.last?.pointers == 2)
    }

    @Test func movementBeforeTheLastFingerLandsDoesNotCount() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        let log = GestureLog(swipe)
        let input = dispatcher(swipe)
        input.dispatch(frame(0, (1, .down, 0, 0)))
        input.dispatch(frame(0.05, (1, .move, 100, 0)))
        input.dispatch(frame(0.1, (2, .down, 140, 0)))
        input.dispatch(frame(0.3, (1, .up, 160, 0), (2, .up, 200, 0)))
        #expect(log.states == [.recognized])
        #expect(log.last?.distance == 60)
        #expect(close(log.last!.scalarVelocity, 300))
    }

    @Test func thresholdsAndDirectionRestrictIt() throws {
        let short = try SwipeGestureRecognizer(fingers: 1, minDistance: 301)
        let slow = try SwipeGestureRecognizer(fingers: 1, minVelocity: 1501)
        let justFastEnough = try SwipeGestureRecognizer(fingers: 1, minDistance: 300, minVelocity: 1500)
        let leftOnly = try SwipeGestureRecognizer(fingers: 1, direction: .left)
        let logs = [short, slow, justFastEnough, leftOnly].map(GestureLog.init)
        let input = dispatcher(short, slow, justFastEnough, leftOnly)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.2, (1, .up, 400, 100)))
        #expect(logs.map(\.states) == [[.failed], [.failed], [.recognized], [.failed]])
        #expect(logs[3].last?.direction == .right)
    }

    @Test func edgeAndElementStartZones() throws {
        let bounds = Element(width: 1000, height: 800)
        let fromLeft = try SwipeGestureRecognizer(element: bounds, fingers: 1, from: .edge(.left, depth: 50))
        let fromRight = try SwipeGestureRecognizer(element: bounds, fingers: 1, from: .edge(.right, depth: 50))
        let fromZone = try SwipeGestureRecognizer(fingers: 1, from: .element(Element(x: 0, y: 700, width: 1000, height: 100)))
        let logs = [fromLeft, fromRight, fromZone].map(GestureLog.init)
        let input = dispatcher(fromLeft, fromRight, fromZone)
        input.dispatch(frame(0, (1, .down, 50, 750)))  // on the left edge's depth, inclusive
        input.dispatch(frame(0.2, (1, .up, 350, 750)))
        input.dispatch(frame(1, (1, .down, 960, 400)))
        input.dispatch(frame(1.2, (1, .up, 660, 400)))
        #expect(logs[0].states == [.recognized, .failed])
        #expect(logs[1].states == [.failed, .recognized])
        #expect(logs[2].states == [.recognized, .failed])
    }

    @Test func theRemainingFingersAreIgnoredAfterTheDecision() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        let log = GestureLog(swipe)
        let input = dispatcher(swipe)
        input.dispatch(frame(0, (1, .down, 0, 0), (2, .down, 40, 0)))
        input.dispatch(frame(0.1, (1, .up, 200, 0), (2, .move, 240, 0)))
        input.dispatch(frame(0.2, (2, .move, 540, 0)))
        input.dispatch(frame(0.3, (3, .down, 0, 0)))  // with 2 still down: a third finger, not a new swipe
        input.dispatch(frame(0.4, (2, .up, 600, 0), (3, .up, 300, 0)))
        #expect(log.states == [.recognized])
        #expect(log.last?.distance == 200)
    }

    @Test func badOptionsThrow() {
        #expect(throws: RecognizerOptionError.self) { try SwipeGestureRecognizer(minDistance: -1) }
        #expect(throws: RecognizerOptionError.self) { try SwipeGestureRecognizer(minVelocity: .infinity) }
        #expect(throws: RecognizerOptionError.self) { try SwipeGestureRecognizer(fingers: 0) }
    }

    /// Issue 22: without `fingers`, one finger (a touchpad's pointer) never swipes; two do.
    @Test func withoutFingersOneFingerIsNotASwipe() throws {
        let swipe = try SwipeGestureRecognizer()
        let log = GestureLog(swipe)
        let input = dispatcher(swipe)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.1, (1, .move, 250, 100)))
        input.dispatch(frame(0.2, (1, .up, 400, 100)))
        #expect(log.states == [.failed])
        threeFingerSwipe(input, t0: 1, dx: -300, dy: 0, fingers: 2)
        #expect(log.states == [.failed, .recognized])
        #expect(log.last?.direction == .left)
        #expect(SwipeGestureRecognizer.defaultMinDistance == 20)
    }
}

