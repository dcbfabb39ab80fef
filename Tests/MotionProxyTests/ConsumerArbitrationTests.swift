import MotionGestures
import MotionProxy
import Testing

private func frame(_ t: Double, _ events: (Int, PointerPhase, Double, Double)...) -> Frame {
    Frame(t: t, events: events.map { PointerEvent(t: t, id: $0.0, phase: $0.1, x: $0.2, y: $0.3) })
}

/// The recognizers' side of consuming: what each says of a touch, and who takes it.
@Suite final class ConsumerArbitrationTests {
    var recognizers: [GestureRecognizer] = []

    func claim(at t: Double) -> ConsumeClaim {
        ConsumerArbitration.claim(on: nil, at: t) { visit in for r in recognizers { visit(r) } }
    }

    func feed(_ f: Frame) -> ConsumeClaim {
        for r in recognizers { r.handle(f) }
        return claim(at: f.t)
    }

    @Test func aThreeFingerSwipeCouldBecomeThenMatchesThenTakesTheTouch() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        recognizers = [swipe]
        #expect(feed(frame(0, (1, .down, 10, 10))) == .couldBecome)
        #expect(feed(frame(0.01, (2, .down, 20, 10))) == .couldBecome)
        #expect(feed(frame(0.02, (3, .down, 30, 10))) == .matching)
        #expect(feed(frame(0.03, (1, .move, 40, 10), (2, .move, 50, 10), (3, .move, 60, 10))) == .matching)
        #expect(feed(frame(0.04, (1, .up, 40, 10), (2, .up, 50, 10), (3, .up, 60, 10))) == .began)
        #expect(swipe.state == .recognized)
        // Taken once: the next frame says nothing of it.
        #expect(claim(at: 0.05) == .none)
    }

    @Test func aFourthFingerEndsTheClaimOfAThreeFingerConsumer() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        recognizers = [swipe]
        _ = feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10)))
        #expect(feed(frame(0.05, (4, .down, 40, 10))) == .none)
    }

    @Test func recognizersThatDoNotConsumeClaimNothing() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        recognizers = [swipe]
        #expect(feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10))) == .none)
    }

    @Test func aHorizontalSwipeLetsAVerticalScrollGoAfterAQuarterOfItsDistance() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2, minDistance: 20, direction: .left)
        swipe.consumes = true
        recognizers = [swipe]
        #expect(feed(frame(0, (1, .down, 50, 50), (2, .down, 70, 50))) == .matching)
        #expect(feed(frame(0.01, (1, .move, 50, 54), (2, .move, 70, 54))) == .matching)
        #expect(feed(frame(0.02, (1, .move, 50, 55), (2, .move, 70, 55))) == .none)
    }

    @Test func theFirstConsumerToBeginTakesTheTouchAndTheOthersAreCancelled() throws {
        let hold = try HoldGestureRecognizer(fingers: 3, duration: 0.3)
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        let drag = try TranslationGestureRecognizer()
        drag.fingers = 3
        let watcher = try TranslationGestureRecognizer()
        for r in [hold, swipe, drag] { r.consumes = true }
        recognizers = [swipe, hold, drag, watcher]
        #expect(feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 30, 10))) == .matching)
        for r in recognizers where r.decidesOnTime { r.advance(to: 0.31) }
        #expect(hold.state == .began)
        #expect(claim(at: 0.31) == .began)
        // The swipe and the drag (consumers) yield; the drag that only watches goes on.
        #expect(swipe.isIgnoringUntilLift == true)
        #expect(drag.isIgnoringUntilLift == true)
        _ = feed(frame(0.32, (1, .move, 60, 10), (2, .move, 70, 10), (3, .move, 80, 10)))
        #expect(drag.state == .possible)
        #expect(watcher.state == .began)
        _ = feed(frame(0.4, (1, .up, 60, 10), (2, .up, 70, 10), (3, .up, 80, 10)))
        #expect(swipe.state != .recognized)
    }

    @Test func whenTwoBeginInOneFrameTheFirstInOrderWins() throws {
        let a = try TranslationGestureRecognizer(), b = try TranslationGestureRecognizer()
        var states: [String] = []
        a.addListener { states.append("a \($0.state)") }
        b.addListener { states.append("b \($0.state)") }
        for r in [a, b] { r.consumes = true; r.fingers = 2 }
        recognizers = [a, b]
        _ = feed(frame(0, (1, .down, 10, 10), (2, .down, 20, 10)))
        #expect(feed(frame(0.01, (1, .move, 40, 10), (2, .move, 50, 10))) == .began)
        #expect(states == ["a began", "b began", "b cancelled"])
    }

    @Test func aDoubleTapHoldsBetweenItsTaps() throws {
        let tap = try TapGestureRecognizer(taps: 2)
        tap.consumes = true
        recognizers = [tap]
        #expect(feed(frame(0, (1, .down, 10, 10))) == .matching)
        #expect(feed(frame(0.05, (1, .up, 10, 10))) == .matching)
        #expect(feed(frame(0.15, (2, .down, 10, 10))) == .matching)
        #expect(feed(frame(0.2, (2, .up, 10, 10))) == .began)
    }
}
