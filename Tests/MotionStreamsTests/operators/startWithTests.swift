import Testing
import MotionStreams
import MotionTestSupport

@Test func startWithEmitsTheInitialValueFirst() {
    #expect(Recorder(just([2.0, 3]).startWith(1)).values == [3])
    let subject = Subject<Double>()
    #expect(Recorder(subject.stream.startWith(1)).values == [1])
}

@Test func startWithOnAPropertyGivesThePropertysValueThenWrites() {
    // Material Motion: startWith is remembered, so the property's value replaces 10 while
    // connecting and the subscriber sees it once.
    let p = ReactiveProperty(0.0)
    let recorder = Recorder(p.stream.startWith(10))
    p.write(-10)
    #expect(recorder.values == [0, -10])
}

@Test func startWithReplaysTheLatestValueToALaterSubscriber() {
    let subject = Subject<Double>()
    let stream = subject.stream.startWith(10)
    let first = Recorder(stream)
    subject.send(50)
    let second = Recorder(stream)
    subject.send(60)
    #expect(first.values == [10, 50, 60])
    #expect(second.values == [50, 60])
}
