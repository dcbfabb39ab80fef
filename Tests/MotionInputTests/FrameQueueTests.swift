import MotionGestures
import Testing
@testable import MotionInput

/// A live device's queue of decoded frames (`LiveDeviceSet`): frames leave in the order they
/// came, whatever growing and compacting its storage needed meanwhile.
@Suite struct FrameQueueTests {
    private static func frame(_ k: Int) -> Frame {
        Frame(t: Double(k), events: [PointerEvent(t: Double(k), id: k, phase: .move, x: 1, y: 2)])
    }

    @Test func framesLeaveInOrderAcrossGrowthAndCompaction() {
        let queue = FrameQueue(capacity: 2)
        #expect(queue.isEmpty && queue.popFirst() == nil)
        var taken: [Int] = []
        // 3 in (grows), 2 out, 3 in (compacts: room at the front), then drained.
        for k in 0..<3 { queue.append(Self.frame(k)) }
        #expect(queue.firstTime == 0)
        for _ in 0..<2 { taken.append(queue.popFirst()!.events[0].id) }
        for k in 3..<6 { queue.append(Self.frame(k)) }
        #expect(queue.firstTime == 2)
        while let f = queue.popFirst() { taken.append(f.events[0].id) }
        #expect(taken == [0, 1, 2, 3, 4, 5])
        #expect(queue.isEmpty)
        // Emptied, it starts again at the front of its storage.
        queue.append(Self.frame(6))
        #expect(queue.popFirst()?.t == 6)
    }

    @Test func framesLeftInTheQueueAreReleasedWithIt() {
        weak var device: PointerDevice?
        do {
            let queue = FrameQueue(capacity: 1)
            let d = PointerDevice(name: "pad", kind: "touchpad")
            device = d
            queue.append(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0, device: d)]))
            queue.append(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .move, x: 0, y: 0, device: d)]))
            _ = queue.popFirst()
        }
        #expect(device == nil)
    }

    @Test func pointerIdsSayWhenAnIdIsReplaced() {
        var ids = DevicePointerIds()
        ids[3] = 3
        #expect(ids.givesOwnIds)
        ids[4] = 1_000_000
        #expect(!ids.givesOwnIds)
        ids[3] = nil
        #expect(!ids.givesOwnIds)
        ids[4] = nil
        #expect(ids.givesOwnIds && ids.isEmpty)
    }
}
