import Testing
import MotionStreams
import MotionTestSupport

@Test func rewriteMapsKeysAndDropsUnmappedOnes() {
    let stream = just([ThresholdEvent.below, .within, .above]).rewrite([.below: "left", .above: "right"])
    #expect(Recorder(stream).values == ["left", "right"])
}

@Test func rewriteToEmitsTheConstantForEveryValue() {
    #expect(Recorder(just([1.0, 2, 3]).rewriteTo("tapped")).values == ["tapped", "tapped", "tapped"])
}

@Test func rewriteRangeIsLinearAndNotClamped() {
    let stream = just([0.0, 50, 100, 150, -50]).rewriteRange(start: 0, end: 100, destinationStart: 1, destinationEnd: 0)
    #expect(Recorder(stream).values == [1, 0.5, 0, -0.5, 1.5])
}

@Test func rewriteRangeWithAnEmptyRangeEmitsTheDestinationStart() {
    let stream = just([0.0, 50]).rewriteRange(start: 10, end: 10, destinationStart: 3, destinationEnd: 7)
    #expect(Recorder(stream).values == [3, 3])
}
