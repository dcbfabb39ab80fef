import Testing
import MotionStreams
import MotionTestSupport

@Test func rememberConnectsUpstreamBeforeAddingTheObserver() {
    // Values upstream emits while connecting reach the first observer once: as the last value.
    let remembered = just([1.0, 2, 3])._remember()
    let recorder = Recorder(remembered)
    #expect(recorder.values == [3])
}

@Test func rememberSharesOneUpstreamConnection() {
    var connections = 0
    let subject = Subject<Int>()
    let counted = MotionObservable<Int> { observer in
        connections += 1
        return subject.stream.connect(observer)
    }._remember()
    let a = Recorder(counted)
    let b = Recorder(counted)
    subject.send(7)
    #expect(connections == 1)
    #expect(a.values == [7])
    #expect(b.values == [7])
}

@Test func rememberKeepsTheLastValueAfterTheLastUnsubscribe() {
    let subject = Subject<Int>()
    let remembered = subject.stream._remember()
    let first = Recorder(remembered)
    subject.send(5)
    first.subscription.unsubscribe()
    subject.send(6)  // nobody connected: not seen
    let later = Recorder(remembered)
    #expect(later.values == [5])
    subject.send(8)
    #expect(later.values == [5, 8])
}

@Test func rememberDisconnectsUpstreamWhenTheLastObserverLeaves() {
    let p = ReactiveProperty(1.0)
    let remembered = p.stream._remember()
    let a = Recorder(remembered)
    let b = Recorder(remembered)
    #expect(p.observerCount == 1)
    a.subscription.unsubscribe()
    #expect(p.observerCount == 1)
    b.subscription.unsubscribe()
    #expect(p.observerCount == 0)
}
