import MotionGestures

/// Multi-touch protocol B: per-slot state that persists across frames (values are not re-sent
/// while unchanged). `ABS_MT_TRACKING_ID` >= 0 starts a contact, -1 lifts it; a tracking id that
/// changed between frames is a lift plus a new touch. Pointer id = tracking id.
///
/// State exists only for the slots the input uses, in slot order, whatever maximum the device
/// claims (a header may say 2^31 slots); at most `maxSlotsInUse` distinct slots, far more than
/// any device has. A frame commits only the slots its events changed (`changed`), so a device with
/// many slots costs per frame what the moving fingers cost.
struct ProtocolBSlots {
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
    /// Slots in use, sorted by slot number.
    private var slots: [Slot] = []
    /// Index in `slots` of the slot events go to.
    private var current: Int
    /// Indices in `slots` of the slots this frame changed, each once. A slot not listed holds what
    /// it committed (`id == committedId`, `x == cx`, `y == cy`), so committing it would do nothing.
    private var changed: [Int] = []

    var count: Int { slots.count }

    init(maxSlot: Int, currentSlot: Int) {
        self.maxSlot = maxSlot
        slots = [Slot(number: currentSlot)]
        current = 0
    }

    /// The index of slot `number`, created when first used.
    private mutating func select(_ number: Int, place: Int) throws -> Int {
        var lo = 0, hi = slots.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slots[mid].number < number { lo = mid + 1 } else { hi = mid }
        }
        if lo < slots.count, slots[lo].number == number { return lo }
        guard slots.count < Self.maxSlotsInUse else {
            throw EvdevDecoder.Failure(message: "more than \(Self.maxSlotsInUse) distinct slots used (slot \(number))", place: place)
        }
        slots.insert(Slot(number: number), at: lo)
        for k in changed.indices where changed[k] >= lo { changed[k] += 1 }
        return lo
    }

    /// Applies a frame's events. `strict`: a position for a slot with no tracking id is an
    /// error (files); `duplicateIdsAreErrors`: a tracking id already held by another slot is an
    /// error (files) rather than ignored (live); `checkMapping` throws when positions cannot be
    /// mapped onto the surface.
    mutating func commit(_ pending: UnsafeBufferPointer<PendingEvent>, strict: Bool, duplicateIdsAreErrors: Bool, emit: EmitPointer,
                         checkMapping: (_ place: Int) throws -> Void) throws {
        defer {
            for i in changed { slots[i].changed = false }
            changed.removeAll(keepingCapacity: true)
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
        for k in changed.indices.dropFirst() {
            let v = changed[k]
            var j = k
            while j > 0, changed[j - 1] > v {
                changed[j] = changed[j - 1]
                j -= 1
            }
            changed[j] = v
        }
        // In slot order, as before: the order of the emitted changes is the slots' order. The
        // walk reads and writes the slots in place (no copy-on-write check per field).
        let order = changed
        try slots.withUnsafeMutableBufferPointer { slots in
            for i in order {
                let s = slots[i]
                if s.id < 0, s.positionPlace >= 0, s.committedId < 0 || s.id != s.committedId, strict {
                    throw EvdevDecoder.Failure(message: "position for slot \(s.number), which has no tracking id (ABS_MT_TRACKING_ID)", place: s.positionPlace)
                }
                if s.committedId >= 0 || s.id >= 0 {
                    try checkMapping(s.positionPlace >= 0 ? s.positionPlace : pending.first?.place ?? 0)
                }
                var shadowed = s.shadowed
                if s.committedId >= 0, s.id != s.committedId {
                    if !shadowed { emit(.up, Int(s.committedId), s.cx, s.cy) }
                    shadowed = false
                }
                if s.id >= 0 {
                    if s.id != s.committedId,
                       let j = slots.indices.first(where: { $0 > i && slots[$0].committedId == s.id && slots[$0].id != s.id }) {
                        // The id leaves a later slot in this frame: its lift goes out before it goes down here.
                        if !slots[j].shadowed { emit(.up, Int(s.id), slots[j].cx, slots[j].cy) }
                        slots[j].committedId = -1
                        slots[j].shadowed = false
                    }
                    if s.id != s.committedId {
                        // A tracking id is one contact: a second slot claiming it is not a second pointer.
                        // (Slots before this one are already updated; those after hold it only if they keep it.)
                        if let other = slots.firstIndex(where: { $0.number != s.number && $0.id == s.id && $0.committedId == s.id && !$0.shadowed }) {
                            if duplicateIdsAreErrors {
                                throw EvdevDecoder.Failure(message: "tracking id \(s.id) in slot \(s.number) is already used by slot \(slots[other].number)", place: s.idPlace)
                            }
                            shadowed = true
                        } else {
                            emit(.down, Int(s.id), s.x, s.y)
                        }
                    } else if !shadowed, s.x != s.cx || s.y != s.cy {
                        emit(.move, Int(s.id), s.x, s.y)
                    }
                }
                slots[i].shadowed = shadowed
                slots[i].committedId = s.id
                slots[i].cx = s.x
                slots[i].cy = s.y
                slots[i].positionPlace = -1
            }
        }
    }

    @inline(__always)
    private mutating func noteChanged() {
        if !slots[current].changed {
            slots[current].changed = true
            changed.append(current)
        }
    }

    /// End of input: every contact still down is cancelled.
    mutating func cancelAll(emit: EmitPointer) {
        for i in slots.indices where slots[i].committedId >= 0 {
            if !slots[i].shadowed { emit(.cancel, Int(slots[i].committedId), slots[i].cx, slots[i].cy) }
            slots[i].committedId = -1
            slots[i].id = -1
            slots[i].shadowed = false
        }
    }
}
