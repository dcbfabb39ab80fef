import Testing
import MotionStreams

@Suite struct ListenerListTests {
    @Test func callsInOrderRemovesByIdAndToleratesRemovalWhileCalling() {
        final class Box { var list = ListenerList<(Int) -> Void>() }
        let box = Box()
        var calls: [String] = []
        var second = -1
        _ = box.list.add { calls.append("a\($0)") }
        second = box.list.add { value in
            calls.append("b\(value)")
            box.list.remove(second)  // removes itself mid-walk
        }
        _ = box.list.add { calls.append("c\($0)") }
        box.list.forEach { $0(1) }
        box.list.forEach { $0(2) }
        #expect(calls == ["a1", "b1", "c1", "a2", "c2"])
        #expect(box.list.count == 2)
    }
}

@Suite struct ListenerRemovedDuringDispatchTests {
    /// A listener removed by an earlier listener of the same value is not called with it (an
    /// action must not run after "disarmed"); one added meanwhile waits for the next value.
    @Test func aListenerRemovedByAnEarlierOneIsNotCalled() {
        final class Box { var list = ListenerList<(Int) -> Void>() }
        let box = Box()
        var calls: [String] = []
        var third = -1
        _ = box.list.add { value in
            calls.append("a\(value)")
            if value == 1 {
                box.list.remove(third)
                _ = box.list.add { calls.append("d\($0)") }
            }
        }
        _ = box.list.add { calls.append("b\($0)") }
        third = box.list.add { calls.append("c\($0)") }
        box.list.forEach { $0(1) }
        box.list.forEach { $0(2) }
        #expect(calls == ["a1", "b1", "a2", "b2", "d2"])
    }

    @Test func removeAllDuringDispatchStopsTheRest() {
        final class Box { var list = ListenerList<(Int) -> Void>() }
        let box = Box()
        var calls: [String] = []
        _ = box.list.add { calls.append("a\($0)"); box.list.removeAll() }
        _ = box.list.add { calls.append("b\($0)") }
        box.list.forEach { $0(1) }
        #expect(calls == ["a1"])
    }
}

@Suite struct SubscriptionLifetimeTests {
    /// A subscription dropped by Swift code without `unsubscribe()` disconnects (it used to stay
    /// connected, and its listener leak, for ever).
    @Test func aDroppedSubscriptionDisconnects() {
        let p = ReactiveProperty(0)
        var seen: [Int] = []
        do {
            let subscription = p.stream.subscribe(next: { seen.append($0) })
            p.write(1)
            #expect(subscription.isSubscribed)
        }
        p.write(2)
        #expect(seen == [0, 1])
        #expect(p.observerCount == 0)
    }
}
