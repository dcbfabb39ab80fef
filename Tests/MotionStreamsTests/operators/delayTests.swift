import Testing
import MotionStreams
import MotionTestSupport

@Test func delayEmitsOnInputTimeAfterTheDelay() {
    let clock = InputClock()
    let value = ReactiveProperty(1.0)
    var emitted: [(Double, Double)] = []
    let subscription = value.stream.delay(by: 0.25, on: clock).subscribe(next: { emitted.append((clock.now, $0)) })
    clock.advance(to: 0.125)
    value.write(2)
    #expect(emitted.isEmpty)
    clock.advance(to: 0.25)
    #expect(emitted.map(\.1) == [1])
    clock.advance(to: 1)
    #expect(emitted.map(\.0) == [0.25, 0.375])
    #expect(emitted.map(\.1) == [1, 2])
    subscription.unsubscribe()
}

@Test func delayDropsPendingValuesOnUnsubscribe() {
    let clock = InputClock()
    var emitted: [Double] = []
    let subscription = just([1.0]).delay(by: 0.1, on: clock).subscribe(next: { emitted.append($0) })
    subscription.unsubscribe()
    clock.advance(to: 1)
    #expect(emitted.isEmpty)
    #expect(clock.pendingCount == 0)
}
