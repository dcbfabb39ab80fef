import MotionGestures

/// Multi-touch protocol A: contacts separated by `SYN_MT_REPORT`, without ids. Each frame's
/// contacts are matched to the previous frame's by nearest neighbour, closest pairs first; pairs
/// further apart than `maxJumpSquared` never match (a lift plus a new touch). Unmatched old
/// contacts lift; unmatched new ones go down with a fresh id.
///
/// What is not a touch: a contact whose `ABS_MT_TOUCH_MAJOR` is 0 (touchpads such as bcm5974 keep
/// reporting a finger's last position with size 0 as it leaves), and every contact while the
/// device's `BTN_TOUCH` is 0 (it says no finger is on the surface: everything lifts).
struct ProtocolAContacts {
    private struct Contact {
        var id: Int
        var x: Int32
        var y: Int32
        var matched: Int
    }

    /// (A fifth of the axis diagonal)² when the ranges are known; otherwise infinite. Distances are
    /// doubles: two 32-bit coordinates apart by the full range squared do not fit 64-bit integers.
    let maxJumpSquared: Double
    /// `BTN_TOUCH` as last reported; nil while the device has not sent it.
    private var touching: Bool?
    private var contacts: [Contact] = []
    private var incoming: [(x: Int32, y: Int32, used: Bool)] = []

    static let maxContacts = 256

    init(maxJumpSquared: Double) {
        self.maxJumpSquared = maxJumpSquared
    }

    mutating func commit(_ pending: UnsafeBufferPointer<PendingEvent>, ids: PointerIds, emit: EmitPointer,
                         checkMapping: (_ place: Int) throws -> Void) throws {
        incoming.removeAll(keepingCapacity: true)
        for p in pending where p.type == EV.KEY && p.code == BTN.TOUCH { touching = p.value != 0 }
        var x: Int32?
        var y: Int32?
        var size: Int32?
        for p in pending {
            if p.type == EV.ABS {
                switch p.code {
                case ABS.MT_POSITION_X: x = p.value
                case ABS.MT_POSITION_Y: y = p.value
                case ABS.MT_TOUCH_MAJOR: size = p.value
                default: break
                }
            } else if p.type == EV.SYN, p.code == SYN.MT_REPORT {
                if let x, let y, size != 0, touching != false {
                    // Matching is cubic in the contact count: bound it (devices report a handful).
                    guard incoming.count < Self.maxContacts else {
                        throw EvdevDecoder.Failure(message: "more than \(Self.maxContacts) contacts in one frame", place: p.place)
                    }
                    incoming.append((x, y, false))
                }
                x = nil
                y = nil
                size = nil
            }
        }
        if !incoming.isEmpty || !contacts.isEmpty {
            try checkMapping(pending.first?.place ?? 0)
        }
        // Contact counts are small: a quadratic scan per matched pair.
        for i in contacts.indices { contacts[i].matched = -1 }
        while true {
            var best: (i: Int, j: Int, d: Double)?
            for i in contacts.indices where contacts[i].matched < 0 {
                for j in incoming.indices where !incoming[j].used {
                    let dx = Double(contacts[i].x) - Double(incoming[j].x)
                    let dy = Double(contacts[i].y) - Double(incoming[j].y)
                    let d = dx * dx + dy * dy
                    if d > maxJumpSquared { continue }
                    if best == nil || d < best!.d { best = (i, j, d) }
                }
            }
            guard let b = best else { break }
            contacts[b.i].matched = b.j
            incoming[b.j].used = true
        }
        for i in contacts.indices {
            let c = contacts[i]
            if c.matched < 0 {
                emit(.up, c.id, c.x, c.y)
            } else {
                let n = incoming[c.matched]
                if n.x != c.x || n.y != c.y {
                    emit(.move, c.id, n.x, n.y)
                    contacts[i].x = n.x
                    contacts[i].y = n.y
                }
            }
        }
        contacts.removeAll { $0.matched < 0 }
        for n in incoming where !n.used {
            let id = ids.fresh()
            emit(.down, id, n.x, n.y)
            contacts.append(Contact(id: id, x: n.x, y: n.y, matched: -1))
        }
    }

    mutating func cancelAll(emit: EmitPointer) {
        for c in contacts { emit(.cancel, c.id, c.x, c.y) }
        contacts.removeAll()
    }
}
