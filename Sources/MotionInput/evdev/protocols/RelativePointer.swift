import MotionGestures

/// Relative pointers (mice): `REL_X/Y` accumulate from a start position even while the button is
/// up, clamped to the surface when there is one; `BTN_LEFT` is the pointer's down/up, and only
/// motion with the button down produces pointer events.
struct RelativePointer {
    private var x: Double
    private var y: Double
    private let bounds: Surface?
    private var button = false
    private var down: (id: Int, x: Double, y: Double)?

    init(start: (x: Double, y: Double), bounds: Surface?) {
        x = start.x
        y = start.y
        self.bounds = bounds
    }

    mutating func commit(_ pending: UnsafeBufferPointer<PendingEvent>, ids: PointerIds,
                         emit: (PointerPhase, _ id: Int, _ x: Double, _ y: Double) -> Void) {
        var dx: Int64 = 0
        var dy: Int64 = 0
        var buttonChanged = false
        for p in pending {
            if p.type == EV.REL {
                if p.code == REL.X { dx += Int64(p.value) } else if p.code == REL.Y { dy += Int64(p.value) }
            } else if p.type == EV.KEY, p.code == BTN.LEFT {
                button = p.value != 0
                buttonChanged = true
            }
        }
        guard dx != 0 || dy != 0 || buttonChanged else { return }
        x += Double(dx)
        y += Double(dy)
        if let bounds {
            x = min(max(x, 0), bounds.width)
            y = min(max(y, 0), bounds.height)
        }
        if let d = down {
            if !button {
                emit(.up, d.id, x, y)
                down = nil
            } else if x != d.x || y != d.y {
                emit(.move, d.id, x, y)
                down = (d.id, x, y)
            }
        } else if button {
            let id = ids.fresh()
            emit(.down, id, x, y)
            down = (id, x, y)
        }
    }

    mutating func cancelAll(emit: (PointerPhase, _ id: Int, _ x: Double, _ y: Double) -> Void) {
        if let d = down { emit(.cancel, d.id, d.x, d.y) }
        down = nil
    }
}
