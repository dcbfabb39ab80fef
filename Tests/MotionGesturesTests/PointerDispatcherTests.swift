import Testing
import MotionStreams
@testable import MotionGestures

@Suite struct PointerDispatcherTests {
    @Test func dispatchAdvancesTheInputClockBeforeHandingOutTheFrame() throws {
        let dispatcher = PointerDispatcher()
        var trace: [String] = []
        dispatcher.clock.schedule(at: 0.5) { trace.append("timer@\(dispatcher.clock.now)") }
        dispatcher.addPointerListener { trace.append("\($0.phase)@\($0.t)") }
        dispatcher.dispatch(frame(0.25, (1, .down, 0, 0)))
        dispatcher.dispatch(frame(0.75, (1, .up, 0, 0)))
        #expect(trace == ["down@0.25", "timer@0.5", "up@0.75"])
        #expect(dispatcher.time == 0.75)
    }

    @Test func finishRunsWhatIsStillScheduledAndKeepsTheLastTime() {
        let dispatcher = PointerDispatcher()
        dispatcher.dispatch(frame(1, (1, .down, 0, 0)))
        var ranAt: Double?
        dispatcher.clock.schedule(at: 3) { ranAt = dispatcher.clock.now }
        dispatcher.finish()
        #expect(ranAt == 3)
        #expect(dispatcher.time == 1)
    }

    @Test func delayRunsOnTheDispatchersInputClock() throws {
        let dispatcher = PointerDispatcher()
        let pan = try TranslationGestureRecognizer()
        dispatcher.add(pan)
        var out: [(Double, GestureState)] = []
        let subscription = gestureSource(pan).delay(by: 0.25, on: dispatcher.clock)
            .subscribe(next: { out.append((dispatcher.clock.now, $0.state)) })
        defer { subscription.unsubscribe() }
        dispatcher.dispatch(frame(0, (1, .down, 0, 0)))
        dispatcher.dispatch(frame(0.125, (1, .move, 50, 0)))
        #expect(out.isEmpty)
        dispatcher.dispatch(frame(0.5, (1, .up, 50, 0)))
        #expect(out.map(\.1) == [.possible, .began])
        dispatcher.finish()
        #expect(out.map(\.0) == [0.25, 0.375, 0.75])
        #expect(out.map(\.1) == [.possible, .began, .ended])
    }
}
