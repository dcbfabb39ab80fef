import Testing
import MotionStreams
import MotionTestSupport

@Test func mergeEmitsValuesOfEveryUpstreamAsTheyArrive() {
    let a = ReactiveProperty(1.0)
    let b = ReactiveProperty(2.0)
    let recorder = Recorder(a.stream.merge(with: b.stream))
    a.write(3)
    b.write(4)
    #expect(recorder.values == [1, 2, 3, 4])
}

@Test func mergeIsActiveWhileAnyUpstreamIsActive() {
    var observers: [MotionObserver<Double>] = []
    let source = MotionObservable<Double> { observer in
        observers.append(observer)
        return {}
    }
    let recorder = Recorder(source.merge(with: source))
    observers[0].state(.active)
    observers[1].state(.active)
    observers[0].state(.atRest)
    observers[1].state(.atRest)
    #expect(recorder.states == [.active, .atRest])
}

@Test func mergeUnsubscribesFromEveryUpstream() {
    let a = ReactiveProperty(1.0)
    let b = ReactiveProperty(2.0)
    let recorder = Recorder(a.stream.merge(with: b.stream))
    recorder.subscription.unsubscribe()
    #expect(a.observerCount == 0 && b.observerCount == 0)
}
