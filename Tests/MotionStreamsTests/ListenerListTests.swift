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
