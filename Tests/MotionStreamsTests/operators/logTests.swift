import Testing
import MotionStreams
import MotionTestSupport

@Test func logPassesValuesThroughAndWritesThem() {
    var lines: [String] = []
    #expect(Recorder(just([1.0]).log("x", to: { lines.append($0) })).values == [1])
    #expect(lines == ["x 1.0"])
}
