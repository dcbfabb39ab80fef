import MotionGestures
import MotionProxy
import XCTest

private func frame(_ t: Double, _ events: (Int, PointerPhase, Double, Double)...) -> Frame {
    Frame(t: t, events: events.map { PointerEvent(t: t, id: $0.0, phase: $0.1, x: $0.2, y: $0.3) })
}

/// The recognizers' side of consuming: what each says of a touch, and who takes it.
final class ConsumerArbitrationTests: XCTestCase {
    var recognizers: [GestureRecognizer] = []

    func claim(at t: Double) -> ConsumeClaim {
        ConsumerArbitration.claim(on: nil, at: t) { visit in for r in recognizers { visit(r) } }
    }

    func feed(_ f: Frame) -> ConsumeClaim {
        for r in recognizers { r.handle(f) }
        return claim(at: f.t)
    }

    func testAThreeFingerSwipeCouldBecomeThenMatchesThenTakesTheTouch() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        recognizers = [swipe]
        XCTAssertEqual(feed(frame(0, (1, .down, 10, 10))), .couldBecome)
        XCTAssertEqual(feed(frame(0.01, (2, .down, 20, 10))), .couldBecome)
        XCTAssertEqual(feed(frame(0.02, (3, .down, 30, 10))), .matching)
        XCTAssertEqual(feed(frame(0.03, (1, .move, 40, 10), (2, .move, 50, 10), (3, .move, 60, 10))), .matching)
        XCTAssertEqual(feed(frame(0.04, (1, .up, 40, 10), (2, .up, 50, 10), (3, .up, 60, 10))), .began)
        XCTAssertEqual(swipe.state, .recognized)
        // Taken once: the next frame says nothing of it.
        XCTAssertEqual(claim(at: 0.05), .none)
    }

    func testAFourthFingerEndsTheClaimOfAThreeFingerConsumer() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        recognizers = [swipe]
        _ = feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10)))
        XCTAssertEqual(feed(frame(0.05, (4, .down, 40, 10))), .none)
    }

    func testRecognizersThatDoNotConsumeClaimNothing() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        recognizers = [swipe]
        XCTAssertEqual(feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10))), .none)
    }

    func testAHorizontalSwipeLetsAVerticalScrollGoAfterAQuarterOfItsDistance() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2, minDistance: 20, direction: .left)
        swipe.consumes = true
        recognizers = [swipe]
        XCTAssertEqual(feed(frame(0, (1, .down, 50, 50), (2, .down, 70, 50))), .matching)
        XCTAssertEqual(feed(frame(0.01, (1, .move, 50, 54), (2, .move, 70, 54))), .matching)
        XCTAssertEqual(feed(frame(0.02, (1, .move, 50, 55), (2, .move, 70, 55))), .none)
    }

    func testTheFirstConsumerToBeginTakesTheTouchAndTheOthersAreCancelled() throws {
        let hold = try HoldGestureRecognizer(fingers: 3, duration: 0.3)
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        let drag = try TranslationGestureRecognizer()
        drag.fingers = 3
        let watcher = try TranslationGestureRecognizer()
        for r in [hold, swipe, drag] { r.consumes = true }
        recognizers = [swipe, hold, drag, watcher]
        XCTAssertEqual(feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10))), .matching)
        for r in recognizers where r.decidesOnTime { r.advance(to: 0.31) }
        XCTAssertEqual(hold.state, .began)
        XCTAssertEqual(claim(at: 0.31), .began)
        // The swipe and the drag (consumers) yield; the drag that only watches goes on.
        XCTAssertEqual(swipe.isIgnoringUntilLift, true)
        XCTAssertEqual(drag.isIgnoringUntilLift, true)
        _ = feed(frame(0.32, (1, .move, 60, 10), (2, .move, 70, 10), (3, .move, 80, 10)))
        XCTAssertEqual(drag.state, .possible)
        XCTAssertEqual(watcher.state, .began)
        _ = feed(frame(0.4, (1, .up, 60, 10), (2, .up, 70, 10), (3, .up, 80, 10)))
        XCTAssertNotEqual(swipe.state, .recognized)
    }

    func testWhenTwoBeginInOneFrameTheFirstInOrderWins() throws {
        let a = try TranslationGestureRecognizer(), b = try TranslationGestureRecognizer()
        var states: [String] = []
        a.addListener { states.append("a \($0.state)") }
        b.addListener { states.append("b \($0.state)") }
        for r in [a, b] { r.consumes = true; r.fingers = 2 }
        recognizers = [a, b]
        _ = feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10)))
        XCTAssertEqual(feed(frame(0.01, (1, .move, 40, 10), (2, .move, 50, 10))), .began)
        XCTAssertEqual(states, ["a began", "b began", "b cancelled"])
    }

    func testADoubleTapHoldsBetweenItsTaps() throws {
        let tap = try TapGestureRecognizer(taps: 2)
        tap.consumes = true
        recognizers = [tap]
        XCTAssertEqual(feed(frame(0, (1, .down, 10, 10))), .matching)
        XCTAssertEqual(feed(frame(0.05, (1, .up, 10, 10))), .matching)
        XCTAssertEqual(feed(frame(0.15, (2, .down, 10, 10))), .matching)
        XCTAssertEqual(feed(frame(0.2, (2, .up, 10, 10))), .began)
    }
}
