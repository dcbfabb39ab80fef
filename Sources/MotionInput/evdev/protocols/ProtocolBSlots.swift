import MotionGestures

/// Multi-touch protocol B: per-slot state that persists across frames (values are not re-sent
/// while unchanged). `ABS_MT_TRACKING_ID` >= 0 starts a contact, -1 lifts it; a tracking id that
/// changed between frames is a lift plus a new touch. Pointer id = tracking id.
///
/// State exists only for the slots the input uses, in slot order, whatever maximum the device
/// claims (a header may say 2^31 slots); at most `maxSlotsInUse` distinct slots, far more than
/// any device has. A frame commits only the slots its events changed (`changed`), so a device with
/// many slots costs per frame what the moving fingers cost.
final class ProtocolBSlots {
    private struct Slot {
        var number: Int
        var id: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var committedId: Int32 = -1
        var cx: Int32 = 0
        var cy: Int32 = 0
        var positionPlace = -1
        var idPlace = -1
        /// A contact whose tracking id another slot already holds: not reported.
        var shadowed = false
        /// Listed in `changed` (this frame set its tracking id or position).
        var changed = false

        init(number: Int) { self.number = number }
    }

    static let maxSlotsInUse = 1024

    let maxSlot: Int
    /// Slots in use (`count` of them, room for `capacity`), sorted by slot number. Plain values
    /// in storage kept from frame to frame: a frame reads and writes them in place, with no
    /// array uniqueness check per field and nothing to release.
    private var slots: UnsafeMutablePointer<Slot>
    private(set) var count = 0
    private var capacity: Int
    /// Index in `slots` of the slot events go to.
    private var current: Int
    /// Indices in `slots` of the slots this frame changed, each once (so never more than
    /// `count`; room for `capacity`). A slot not listed holds what it committed (`id ==
    /// committedId`, `x == cx`, `y == cy`), so committing it would do nothing.
    private var changed: UnsafeMutablePointer<Int>
    private var changedCount = 0

    init(maxSlot: Int, currentSlot: Int) {
        self.maxSlot = maxSlot
        capacity = 4
        slots = .allocate(capacity: capacity)
        changed = .allocate(capacity: capacity)
        slots.initialize(to: Slot(number: currentSlot))
        count = 1
        current = 0
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
        changed.deallocate()
    }

    /// The index of slot `number`, created when first used.
    private func select(_ number: Int, place: Int) throws -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slots[mid].number < number { lo = mid + 1 } else { hi = mid }
        }
        if lo < count, slots[lo].number == number { return lo }
        guard count < Self.maxSlotsInUse else {
            throw EvdevDecoder.Failure(message: "more than \(Self.maxSlotsInUse) distinct slots used (slot \(number))", place: place)
        }
        if count == capacity { grow() }
        (slots + lo + 1).moveInitialize(from: slots + lo, count: count - lo)
        (slots + lo).initialize(to: Slot(number: number))
        count += 1
        for k in 0..<changedCount where changed[k] >= lo { changed[k] += 1 }
        return lo
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Slot>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: slots, count: count)
        slots.deallocate()
        slots = bigger
        let biggerChanged = UnsafeMutablePointer<Int>.allocate(capacity: capacity * 2)
        biggerChanged.moveInitialize(from: changed, count: changedCount)
        changed.deallocate()
        changed = biggerChanged
        capacity *= 2
    }

    /// Applies a frame's events, telling `sink` each pointer change in slot order. `strict`: a
    /// position for a slot with no tracking id is an error (files); `duplicateIdsAreErrors`: a
    /// tracking id already held by another slot is an error (files) rather than ignored (live);
    /// `sink.checkSlotMapping` throws when positions cannot be mapped onto the surface.
    func commit<Sink: SlotChangeSink>(_ pending: UnsafeBufferPointer<PendingEvent>, strict: Bool, duplicateIdsAreErrors: Bool,
                                      sink: Sink) throws {
        defer {
            for k in 0..<changedCount { slots[changed[k]].changed = false }
            changedCount = 0
        }
        for p in pending where p.type == EV.ABS {
            switch p.code {
            case ABS.MT_SLOT:
                guard p.value >= 0, Int(p.value) <= maxSlot else {
                    throw EvdevDecoder.Failure(message: "slot \(p.value) is beyond the device's maximum slot \(maxSlot)", place: p.place)
                }
                current = try select(Int(p.value), place: p.place)
            case ABS.MT_TRACKING_ID:
                slots[current].id = p.value
                slots[current].idPlace = p.place
                noteChanged()
            case ABS.MT_POSITION_X:
                slots[current].x = p.value
                if slots[current].positionPlace < 0 { slots[current].positionPlace = p.place }
                noteChanged()
            case ABS.MT_POSITION_Y:
                slots[current].y = p.value
                if slots[current].positionPlace < 0 { slots[current].positionPlace = p.place }
                noteChanged()
            default:
                break
            }
        }
        // Insertion sort: a frame changes a few slots, often already in order.
        var k = 1
        while k < changedCount {
            let v = changed[k]
            var j = k
            while j > 0, changed[j - 1] > v {
                changed[j] = changed[j - 1]
                j -= 1
            }
            changed[j] = v
            k += 1
        }
        // In slot order, as before: the order of the emitted changes is the slots' order.
        for k in 0..<changedCount {
            let i = changed[k]
            let s = slots[i]
            if s.id < 0, s.positionPlace >= 0, s.committedId < 0 || s.id != s.committedId, strict {
                throw EvdevDecoder.Failure(message: "position for slot \(s.number), which has no tracking id (ABS_MT_TRACKING_ID)", place: s.positionPlace)
            }
            if s.committedId >= 0 || s.id >= 0 {
                try sink.checkSlotMapping(place: s.positionPlace >= 0 ? s.positionPlace : pending.first?.place ?? 0)
            }
            var shadowed = s.shadowed
            if s.committedId >= 0, s.id != s.committedId {
                if !shadowed { sink.slotChange(.up, id: Int(s.committedId), s.cx, s.cy) }
                shadowed = false
            }
            if s.id >= 0 {
                if s.id != s.committedId, let j = laterSlot(after: i, leaving: s.id) {
                    // The id leaves a later slot in this frame: its lift goes out before it goes down here.
                    if !slots[j].shadowed { sink.slotChange(.up, id: Int(s.id), slots[j].cx, slots[j].cy) }
                    slots[j].committedId = -1
                    slots[j].shadowed = false
                }
                if s.id != s.committedId {
                    // A tracking id is one contact: a second slot claiming it is not a second pointer.
                    // (Slots before this one are already updated; those after hold it only if they keep it.)
                    if let other = otherSlot(holding: s.id, besides: s.number) {
                        if duplicateIdsAreErrors {
                            throw EvdevDecoder.Failure(message: "tracking id \(s.id) in slot \(s.number) is already used by slot \(slots[other].number)", place: s.idPlace)
                        }
                        shadowed = true
                    } else {
                        sink.slotChange(.down, id: Int(s.id), s.x, s.y)
                    }
                } else if !shadowed, s.x != s.cx || s.y != s.cy {
                    sink.slotChange(.move, id: Int(s.id), s.x, s.y)
                }
            }
            slots[i].shadowed = shadowed
            slots[i].committedId = s.id
            slots[i].cx = s.x
            slots[i].cy = s.y
            slots[i].positionPlace = -1
        }
    }

    /// The first slot after `i` that committed tracking id `id` and gives it up this frame.
    private func laterSlot(after i: Int, leaving id: Int32) -> Int? {
        var j = i + 1
        while j < count {
            if slots[j].committedId == id && slots[j].id != id { return j }
            j += 1
        }
        return nil
    }

    /// The first slot other than slot `number` that holds and reports tracking id `id`.
    private func otherSlot(holding id: Int32, besides number: Int) -> Int? {
        for j in 0..<count where slots[j].number != number && slots[j].id == id && slots[j].committedId == id && !slots[j].shadowed {
            return j
        }
        return nil
    }

    @inline(__always)
    private func noteChanged() {
        if !slots[current].changed {
            slots[current].changed = true
            changed[changedCount] = current
            changedCount += 1
        }
    }

    /// End of input: every contact still down is cancelled.
    func cancelAll<Sink: SlotChangeSink>(sink: Sink) {
        for i in 0..<count where slots[i].committedId >= 0 {
            if !slots[i].shadowed { sink.slotChange(.cancel, id: Int(slots[i].committedId), slots[i].cx, slots[i].cy) }
            slots[i].committedId = -1
            slots[i].id = -1
            slots[i].shadowed = false
        }
    }
}

/// Where protocol B sends a frame's pointer changes (the decoder), called directly rather than
/// through closures.
protocol SlotChangeSink: AnyObject {
    /// One pointer change, in device units.
    func slotChange(_ phase: PointerPhase, id: Int, _ x: Int32, _ y: Int32)
    /// Throws when positions cannot be mapped onto the surface (called before a contact's changes).
    func checkSlotMapping(place: Int) throws
}
