import Testing
import MotionStreams
import MotionTestSupport

@Test func dedupeEmitsOnlyChanges() {
    #expect(Recorder(just([20.0, 20, 80, 20]).dedupe()).values == [20, 80, 20])
}

@Test func dedupeStateIsPerSubscription() {
    let stream = just([20.0, 20]).dedupe()
    #expect(Recorder(stream).values == [20])
    #expect(Recorder(stream).values == [20])
}
