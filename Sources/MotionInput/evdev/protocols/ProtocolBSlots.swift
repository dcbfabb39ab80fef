import MotionGestures

/// Multi-touch protocol B: per-slot state that persists across frames (values are not re-sent
/// while unchanged). `ABS_MT_TRACKING_ID` >= 0 starts a contact, -1 lifts it; a tracking id that
/// changed between frames is a lift plus a new touch. Pointer id = tracking id.
struct ProtocolBSlots {
    private struct Slot {
        var id: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var committedId: Int32 = -1
        var cx: Int32 = 0
        var cy: Int32 = 0
        var positionPlace = -1
    }

    let maxSlot: Int
    private var slots: [Slot]
    private var currentSlot: Int

    init(maxSlot: Int, currentSlot: Int, slotCount: Int) {
        self.maxSlot = maxSlot
        self.currentSlot = currentSlot
        slots = [Slot](repeating: Slot(), count: slotCount)
    }

    /// Applies a frame's events. `strict`: a position for a slot with no tracking id is an
    /// error (files); `checkMapping` throws when positions cannot be mapped onto the surface.
    mutating func commit(_ pending: [PendingEvent], strict: Bool, emit: EmitPointer,
                         checkMapping: (_ place: Int) throws -> Void) throws {
        var touched = false
        for p in pending where p.type == EV.ABS {
            switch p.code {
            case ABS.MT_SLOT:
                guard p.value >= 0, Int(p.value) <= maxSlot else {
                    throw EvdevDecoder.Failure(message: "slot \(p.value) is beyond the device's maximum slot \(maxSlot)", place: p.place)
                }
                currentSlot = Int(p.value)
                if currentSlot >= slots.count { slots.append(contentsOf: repeatElement(Slot(), count: currentSlot + 1 - slots.count)) }
            case ABS.MT_TRACKING_ID:
                slots[currentSlot].id = p.value
                touched = true
            case ABS.MT_POSITION_X:
                slots[currentSlot].x = p.value
                if slots[currentSlot].positionPlace < 0 { slots[currentSlot].positionPlace = p.place }
                touched = true
            case ABS.MT_POSITION_Y:
                slots[currentSlot].y = p.value
                if slots[currentSlot].positionPlace < 0 { slots[currentSlot].positionPlace = p.place }
                touched = true
            default:
                break
            }
        }
        guard touched else { return }
        for i in slots.indices {
            let s = slots[i]
            if s.id < 0, s.positionPlace >= 0, s.committedId < 0 || s.id != s.committedId, strict {
                throw EvdevDecoder.Failure(message: "position for slot \(i), which has no tracking id (ABS_MT_TRACKING_ID)", place: s.positionPlace)
            }
            if s.committedId >= 0 || s.id >= 0 {
                try checkMapping(s.positionPlace >= 0 ? s.positionPlace : pending.first?.place ?? 0)
            }
            if s.committedId >= 0, s.id != s.committedId {
                emit(.up, Int(s.committedId), s.cx, s.cy)
            }
            if s.id >= 0 {
                if s.id != s.committedId {
                    emit(.down, Int(s.id), s.x, s.y)
                } else if s.x != s.cx || s.y != s.cy {
                    emit(.move, Int(s.id), s.x, s.y)
                }
            }
            slots[i].committedId = s.id
            slots[i].cx = s.x
            slots[i].cy = s.y
            slots[i].positionPlace = -1
        }
    }

    /// End of input: every contact still down is cancelled.
    mutating func cancelAll(emit: EmitPointer) {
        for i in slots.indices where slots[i].committedId >= 0 {
            emit(.cancel, Int(slots[i].committedId), slots[i].cx, slots[i].cy)
            slots[i].committedId = -1
            slots[i].id = -1
        }
    }
}
