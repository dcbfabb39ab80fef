import Testing
import MotionStreams

/// reference.md "Streams": MotionObservable, subscriptions, the foundation operators, properties.
@Suite struct FoundationTests {
    @Test func eachSubscribeConnectsAnewAndUnsubscribeDisconnectsOnce() {
        var connects = 0
        var disconnects = 0
        let stream = MotionObservable<Int> { observer in
            connects += 1
            observer.next(connects)
            return { disconnects += 1 }
        }
        var seen: [Int] = []
        let a = stream.subscribe(next: { seen.append($0) })
        let b = stream.subscribe(next: { seen.append($0) })
        a.unsubscribe()
        a.unsubscribe()
        #expect(seen == [1, 2])
        #expect((connects, disconnects) == (2, 1))
        b.unsubscribe()
        #expect(disconnects == 2)
        #expect(!b.isSubscribed)
    }

    @Test func nextOperatorMayEmitZeroOrManyAndForwardsStates() {
        let subject = ReactiveProperty(0)
        var values: [Int] = []
        var states: [MotionState] = []
        let source = MotionObservable<Int> { observer in
            observer.state(.active)
            let s = subject.stream.subscribe(next: observer.next)
            observer.state(.atRest)
            return { s.unsubscribe() }
        }
        let subscription = source._nextOperator { (v: Int, next: (Int) -> Void) in
            for _ in 0..<v { next(v) }
        }.subscribe(next: { values.append($0) }, state: { states.append($0) })
        defer { subscription.unsubscribe() }
        subject.write(2)
        subject.write(1)
        #expect(values == [2, 2, 1])
        #expect(states == [.active, .atRest])
    }

    @Test func mapFilterAndRead() {
        let p = ReactiveProperty(3)
        #expect(p.stream._map { $0 * 2 }._read() == 6)
        #expect(p.stream._filter { $0 > 5 }._read() == nil)
        #expect(p.observerCount == 0)
    }

    @Test func rememberSharesOneConnectionAndReplaysTheLastValue() {
        var connects = 0
        let p = ReactiveProperty(1)
        let upstream = MotionObservable<Int> { observer in
            connects += 1
            let s = p.stream.subscribe(next: observer.next)
            return { s.unsubscribe() }
        }
        let remembered = upstream._remember()
        var a: [Int] = [], b: [Int] = []
        let sa = remembered.subscribe(next: { a.append($0) })
        p.write(2)
        let sb = remembered.subscribe(next: { b.append($0) })
        p.write(3)
        #expect(connects == 1)
        #expect(a == [1, 2, 3])
        #expect(b == [2, 3])
        sa.unsubscribe()
        sb.unsubscribe()
        #expect(p.observerCount == 0)
    }

    @Test func propertyEmitsCurrentValueOnSubscribeAndEveryWriteWithoutDedupe() {
        let p = ReactiveProperty(5)
        var seen: [Int] = []
        let s = p.stream.subscribe(next: { seen.append($0) })
        p.write(5)
        p.write(6)
        #expect(seen == [5, 5, 6])
        #expect(p.read() == 6)
        s.unsubscribe()
        p.write(7)
        #expect(seen == [5, 5, 6])
    }

    @Test func dedupeDropsRepeats() {
        let p = ReactiveProperty(20)
        var seen: [Int] = []
        let subscription = p.stream.dedupe().subscribe(next: { seen.append($0) })
        defer { subscription.unsubscribe() }
        for v in [20, 80, 20] { p.write(v) }
        #expect(seen == [20, 80, 20])
    }

    @Test func dedupeStateIsPerSubscription() {
        let p = ReactiveProperty(1)
        let d = p.stream.dedupe()
        var a: [Int] = [], b: [Int] = []
        let first = d.subscribe(next: { a.append($0) })
        let second = d.subscribe(next: { b.append($0) })
        defer { first.unsubscribe(); second.unsubscribe() }
        #expect(a == [1])
        #expect(b == [1])
    }

    @Test func xYAndLog() {
        let p = ReactiveProperty(Point(x: 3, y: 4))
        var xs: [Double] = [], ys: [Double] = [], logs: [String] = []
        let xSubscription = p.stream.log("at", to: { logs.append($0) }).x().subscribe(next: { xs.append($0) })
        let ySubscription = p.stream.y().subscribe(next: { ys.append($0) })
        defer { xSubscription.unsubscribe(); ySubscription.unsubscribe() }
        p.write(Point(x: 5, y: 6))
        #expect(xs == [3, 5])
        #expect(ys == [4, 6])
        #expect(logs == ["at (3.0, 4.0)", "at (5.0, 6.0)"])
    }
}
