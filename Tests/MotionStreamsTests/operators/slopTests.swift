import Testing
import MotionStreams
import MotionTestSupport

@Test func slopEmitsNothingUntilTheValueLeavesTheRegion() {
    #expect(Recorder(just([0.0, 5, -10, 10]).slop(size: 10)).values.isEmpty)
}

@Test func slopEmitsOnExitAndOnReturnOncePerCrossing() {
    let stream = just([0.0, 11, 20, 5, 0, -11, -30, 10]).slop(size: 10)
    #expect(Recorder(stream).values == [.onExit, .onReturn, .onExit, .onReturn])
}
