import MotionGestures

/// Single-touch devices: `ABS_X/Y` with `BTN_TOUCH` as down/up. (Multi-touch devices send the
/// same as emulation; the decoder ignores it there, so nothing is counted twice.)
struct SingleTouch {
    private var touching = false
    private var x: Int32 = 0
    private var y: Int32 = 0
    private var down: (id: Int, x: Int32, y: Int32)?

    mutating func commit(_ pending: UnsafeBufferPointer<PendingEvent>, ids: PointerIds, emit: EmitPointer,
                         checkMapping: (_ place: Int) throws -> Void) throws {
        var changed = false
        var place = 0
        for p in pending {
            if p.type == EV.KEY, p.code == BTN.TOUCH {
                touching = p.value != 0
                changed = true
                place = p.place
            } else if p.type == EV.ABS, p.code == ABS.X || p.code == ABS.Y {
                if p.code == ABS.X { x = p.value } else { y = p.value }
                changed = true
                place = p.place
            }
        }
        guard changed, touching || down != nil else { return }
        try checkMapping(place)
        if let d = down {
            if !touching {
                emit(.up, d.id, x, y)
                down = nil
            } else if x != d.x || y != d.y {
                emit(.move, d.id, x, y)
                down = (d.id, x, y)
            }
        } else {
            let id = ids.fresh()
            emit(.down, id, x, y)
            down = (id, x, y)
        }
    }

    mutating func cancelAll(emit: EmitPointer) {
        if let d = down { emit(.cancel, d.id, d.x, d.y) }
        down = nil
    }
}
