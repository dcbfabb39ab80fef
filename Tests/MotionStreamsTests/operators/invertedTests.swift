import Testing
import MotionStreams

@Test func invertedNegatesBooleans() {
    #expect(Recorder(just([true, false, true]).inverted()).values == [false, true, false])
}
