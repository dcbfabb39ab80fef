import Testing
import MotionStreams
import MotionTestSupport

@Test func thresholdEmitsBelowWithinAbove() {
    #expect(Recorder(just([10.0, 50, 90]).threshold(50)).values == [.below, .within, .above])
}

@Test func thresholdRangeIsInclusiveWithin() {
    let stream = just([-1.0, 0, 50, 100, 101]).thresholdRange(min: 0, max: 100)
    #expect(Recorder(stream).values == [.below, .within, .within, .within, .above])
}
