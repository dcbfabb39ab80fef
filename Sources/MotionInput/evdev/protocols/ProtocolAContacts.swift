import MotionGestures

/// Multi-touch protocol A: contacts separated by `SYN_MT_REPORT`, without ids. Each frame's
/// contacts are matched to the previous frame's by nearest neighbour, closest pairs first; pairs
/// further apart than `maxJumpSquared` never match (a lift plus a new touch). Unmatched old
/// contacts lift; unmatched new ones go down with a fresh id.
struct ProtocolAContacts {
    private struct Contact {
        var id: Int
        var x: Int32
        var y: Int32
        var matched: Int
    }

    /// (A fifth of the axis diagonal)² when the ranges are known; otherwise unlimited.
    let maxJumpSquared: Int64
    private var contacts: [Contact] = []
    private var incoming: [(x: Int32, y: Int32, used: Bool)] = []

    init(maxJumpSquared: Int64) {
        self.maxJumpSquared = maxJumpSquared
    }

    mutating func commit(_ pending: [PendingEvent], nextId: inout Int, emit: EmitPointer,
                         checkMapping: (_ place: Int) throws -> Void) throws {
        incoming.removeAll(keepingCapacity: true)
        var x: Int32?
        var y: Int32?
        for p in pending {
            if p.type == EV.ABS {
                if p.code == ABS.MT_POSITION_X { x = p.value } else if p.code == ABS.MT_POSITION_Y { y = p.value }
            } else if p.type == EV.SYN, p.code == SYN.MT_REPORT {
                if let x, let y { incoming.append((x, y, false)) }
                x = nil
                y = nil
            }
        }
        if !incoming.isEmpty || !contacts.isEmpty {
            try checkMapping(pending.first?.place ?? 0)
        }
        // Contact counts are small: a quadratic scan per matched pair.
        for i in contacts.indices { contacts[i].matched = -1 }
        while true {
            var best: (i: Int, j: Int, d: Int64)?
            for i in contacts.indices where contacts[i].matched < 0 {
                for j in incoming.indices where !incoming[j].used {
                    let dx = Int64(contacts[i].x) - Int64(incoming[j].x)
                    let dy = Int64(contacts[i].y) - Int64(incoming[j].y)
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
            emit(.down, nextId, n.x, n.y)
            contacts.append(Contact(id: nextId, x: n.x, y: n.y, matched: -1))
            nextId += 1
        }
    }

    mutating func cancelAll(emit: EmitPointer) {
        for c in contacts { emit(.cancel, c.id, c.x, c.y) }
        contacts.removeAll()
    }
}
