import Testing
import MotionStreams
import MotionTestSupport

@Test func invertedNegatesBooleans() {
    #expect(Recorder(just([true, false, true]).inverted()).values == [false, true, false])
}
