import Testing
import MotionStreams
import MotionTestSupport

@Test func startWithEmitsTheInitialValueFirst() {
    #expect(Recorder(just([2.0, 3]).startWith(1)).values == [1, 2, 3])
}
