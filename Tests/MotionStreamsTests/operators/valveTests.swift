import Testing
import MotionStreams
import MotionTestSupport

@Test func valvePassesValuesOnlyWhileOpen() {
    let open = ReactiveProperty(false)
    let value = ReactiveProperty(1.0)
    let recorder = Recorder(value.stream.valve(open.stream))
    value.write(2)
    open.write(true)  // subscribes: the property replays 2
    value.write(3)
    open.write(false)
    value.write(4)
    #expect(recorder.values == [2, 3])
    #expect(value.observerCount == 0)
}
