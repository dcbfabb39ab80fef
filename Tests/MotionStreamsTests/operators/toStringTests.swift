import Testing
import MotionStreams
import MotionTestSupport

@Test func toStringFormatsValues() {
    #expect(Recorder(just([20.0, 0.5]).toString()).values == ["20", "0.5"])
    #expect(Recorder(just([true]).toString()).values == ["true"])
}
