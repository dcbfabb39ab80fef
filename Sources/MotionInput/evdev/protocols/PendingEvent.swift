import MotionGestures

/// An event held until its frame's `SYN_REPORT`, with its place in the source (line or byte offset).
struct PendingEvent {
    var type: UInt16
    var code: UInt16
    var value: Int32
    var place: Int
}

/// Where a protocol sends the pointer changes of a frame, in device units.
typealias EmitPointer = (PointerPhase, _ id: Int, _ x: Int32, _ y: Int32) -> Void

/// A frame's events until its `SYN_REPORT`. The storage is kept from frame to frame and cleared by
/// resetting the count, and protocols read the events in place: no per-event uniqueness check and
/// no per-frame array work. Plain values only (`PendingEvent` holds no references), so nothing
/// needs deinitializing. The decoder bounds the count (`EvdevDecoder.maxFrameEvents`).
final class PendingEvents {
    private var storage: UnsafeMutablePointer<PendingEvent>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    @inline(__always)
    func append(_ event: PendingEvent) {
        if count == capacity { grow() }
        (storage + count).initialize(to: event)
        count += 1
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<PendingEvent>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity *= 2
    }

    func removeAll() { count = 0 }

    /// The events so far, valid until the next `append`.
    var events: UnsafeBufferPointer<PendingEvent> { UnsafeBufferPointer(start: storage, count: count) }
}
