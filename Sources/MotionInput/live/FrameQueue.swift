import MotionGestures

/// One device's frames read and decoded, not yet delivered (`LiveDeviceSet`), in order. Frames
/// are moved into and out of storage kept from wake-up to wake-up: taking one is a move, with
/// no array bookkeeping (uniqueness checks, range replacement, a placeholder written back) per
/// frame. Grows only when a wake-up finds more frames than ever before.
final class FrameQueue {
    private var storage: UnsafeMutablePointer<Frame>
    private var capacity: Int
    /// The frames waiting are `storage[head..<end]`.
    private var head = 0
    private var end = 0

    init(capacity: Int = 16) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        (storage + head).deinitialize(count: end - head)
        storage.deallocate()
    }

    var isEmpty: Bool { head == end }

    /// The time of the next frame (the queue is not empty).
    var firstTime: Double { storage[head].t }

    func append(_ frame: consuming Frame) {
        if end == capacity { makeRoom() }
        (storage + end).initialize(to: frame)
        end += 1
    }

    /// The next frame, taken out of the queue; nil when there is none.
    func popFirst() -> Frame? {
        guard head < end else { return nil }
        let frame = (storage + head).move()
        head += 1
        if head == end {
            head = 0
            end = 0
        }
        return frame
    }

    private func makeRoom() {
        if head > 0 {
            storage.moveInitialize(from: storage + head, count: end - head)
        } else {
            let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: storage, count: end)
            storage.deallocate()
            storage = bigger
            capacity *= 2
        }
        end -= head
        head = 0
    }
}
