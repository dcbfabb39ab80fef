import Testing
import MotionStreams
import MotionTestSupport

@Test func ignoreUntilEmitsFromTheExpectedValueOn() {
    #expect(Recorder(just([20.0, 10, 80, 10, 20]).ignoreUntil(80)).values == [80, 10, 20])
}

@Test func ignoreUntilEmitsNothingIfTheValueNeverComes() {
    #expect(Recorder(just([20.0, 10]).ignoreUntil(80)).values.isEmpty)
}
