import MotionInput

/// A device's state as its events told it (the real device's, or what the clone was given):
/// each slot's tracking id and multi-touch values, the current slot, the other absolute axes,
/// the keys down. Sized once; applying a frame allocates nothing (a key seen for the first time
/// aside).
struct DeviceState {
    static let plainAxes = Int(ABS.MT_SLOT)
    static let mtFirst = ABS.MT_TOUCH_MAJOR
    static let mtCount = 0x40 - Int(ABS.MT_TOUCH_MAJOR)

    var ids: [Int32]
    var mt: [Int32]
    var slot = 0
    var abs: [Int32]
    var hasAbs: [Bool]
    /// Keys ever seen, and whether each is down (`keys[k]` is down when `down[k]`).
    var keys: [UInt16] = []
    var down: [Bool] = []
    /// Whether key `code` is down.
    func isDown(_ code: UInt16) -> Bool {
        guard let k = keys.firstIndex(of: code) else { return false }
        return down[k]
    }
    var touchKey = false
    let slotCount: Int

    init(slots: Int) {
        slotCount = slots
        ids = Array(repeating: -1, count: slots)
        mt = Array(repeating: 0, count: slots * Self.mtCount)
        abs = Array(repeating: 0, count: Self.plainAxes)
        hasAbs = Array(repeating: false, count: Self.plainAxes)
        keys.reserveCapacity(32)
        down.reserveCapacity(32)
    }

    /// A finger is down: a slot holds a tracking id, or (single-touch devices) BTN_TOUCH is 1.
    var anyFinger: Bool {
        if touchKey { return true }
        for id in ids where id >= 0 { return true }
        return false
    }

    var fingers: Int { ids.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) } }

    mutating func apply(_ events: [InputEventRecord]) {
        events.withUnsafeBufferPointer { apply($0) }
    }

    mutating func apply(_ events: UnsafeBufferPointer<InputEventRecord>) {
        for e in events { apply(e) }
    }

    @inline(__always)
    mutating func apply(_ e: InputEventRecord) {
        switch e.type {
        case EV.ABS:
            if e.code == ABS.MT_SLOT {
                slot = Int(e.value)
            } else if e.code >= Self.mtFirst && e.code < 0x40 {
                guard slot >= 0 && slot < slotCount else { return }
                if e.code == ABS.MT_TRACKING_ID { ids[slot] = e.value }
                mt[slot * Self.mtCount + Int(e.code - Self.mtFirst)] = e.value
            } else if Int(e.code) < Self.plainAxes {
                abs[Int(e.code)] = e.value
                hasAbs[Int(e.code)] = true
            }
        case EV.KEY:
            if e.code == BTN.TOUCH {
                touchKey = e.value != 0
                // The kernel says BTN_TOUCH 0 only when no contact is left.
                if e.value == 0 { for s in ids.indices { ids[s] = -1 } }
            }
            if let k = keys.firstIndex(of: e.code) {
                down[k] = e.value != 0
            } else {
                keys.append(e.code)
                down.append(e.value != 0)
            }
        default:
            break
        }
    }

    /// BTN_TOOL_* and BTN_TOUCH: what says fingers are down, not a button pressed.
    static func isToolOrTouch(_ code: UInt16) -> Bool {
        code >= 0x140 && code <= 0x14f
    }
}
