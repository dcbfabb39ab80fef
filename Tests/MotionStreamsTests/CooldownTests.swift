import Testing
@testable import MotionStreams
import MotionTestSupport

@Suite struct CooldownTests {
    @Test func throttleEmitsThenDropsUntilTheCooldownPassed() {
        var now = 0.0
        let subject = Subject<Int>()
        let recorder = Recorder(subject.stream.throttle(0.5, now: { now }))
        for (t, value) in [(0.0, 1), (0.2, 2), (0.49, 3), (0.5, 4), (0.7, 5), (1.1, 6)] {
            now = t
            subject.send(value)
        }
        #expect(recorder.values == [1, 4, 6])
    }

    @Test func debounceEmitsOnceQuietStampedWhenItFellDue() {
        let clock = InputClock()
        let subject = Subject<Int>()
        var emitted: [(Int, Double)] = []
        let subscription = subject.stream.debounce(0.3, on: clock, now: { clock.now })
            .subscribe(next: { emitted.append(($0, clock.now)) })
        for (t, value) in [(0.0, 1), (0.1, 2), (0.25, 3), (1.0, 4)] {
            clock.advance(to: t)
            subject.send(value)
        }
        #expect(emitted.map(\.0) == [3])
        #expect(emitted.map(\.1) == [0.55])
        clock.advance(to: .infinity)
        #expect(emitted.map(\.0) == [3, 4])
        #expect(emitted.map(\.1) == [0.55, 1.3])
        subject.send(5)
        subscription.unsubscribe()
        clock.advance(to: .infinity)
        #expect(emitted.count == 2)
    }
}
