import Testing
import MotionStreams
import MotionTestSupport

@Test func lowerBoundRaisesValuesBelowTheMinimum() {
    #expect(Recorder(just([-10.0, 0, 50, 100]).lowerBound(0)).values == [0, 0, 50, 100])
}

@Test func upperBoundLowersValuesAboveTheMaximum() {
    #expect(Recorder(just([-10.0, 0, 50, 100]).upperBound(50)).values == [-10, 0, 50, 50])
}
