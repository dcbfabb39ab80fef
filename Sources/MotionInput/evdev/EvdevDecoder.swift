import MotionGestures

/// Turns evdev events into pointer frames, one frame per `SYN_REPORT` that changed a pointer.
///
/// One decoder serves every source (evemu, libinput recordings, raw bytes, live devices), so they
/// all agree. It handles:
/// - multi-touch protocol B (slots; `ABS_MT_TRACKING_ID` >= 0 starts a contact, -1 lifts it; values
///   are not re-sent when unchanged, so per-slot state persists across frames). Pointer id = tracking id.
/// - multi-touch protocol A (contacts separated by `SYN_MT_REPORT`, no ids): contacts are matched to
///   the previous frame's by nearest neighbour (closest pairs first, pairs further apart than a fifth
///   of the axis diagonal never match); unmatched old contacts lift, unmatched new ones go down with a
///   fresh id from a counter.
/// - single-touch devices (`ABS_X/Y` + `BTN_TOUCH`), ignored when the device has multi-touch axes so
///   the kernel's single-touch emulation is not counted twice.
/// - relative pointers (`REL_X/Y` + `BTN_LEFT`): the position is accumulated from a start point
///   (surface centre, or (0, 0) without a surface) even while the button is up; only button-down
///   motion produces pointer events.
///
/// Events are buffered until `SYN_REPORT` and applied atomically, which also lets a source without a
/// description (raw bytes) reveal its protocol frame by frame. `SYN_DROPPED` discards everything up to
/// and including the next `SYN_REPORT`; state then resynchronizes from the following frames (a tracking
/// id that changed across the gap is a lift plus a new touch; nothing is invented).
public final class EvdevDecoder {
    /// A decoding problem at the source position (`place`: line number or byte offset) of the event.
    public struct Failure: Error, Equatable {
        public let message: String
        public let place: Int
    }

    public let device: DeviceDescription
    /// Events whose type the kernel does not define: ignored, counted here.
    public private(set) var unknownEventCount = 0
    /// `SYN_DROPPED` markers seen.
    public private(set) var droppedCount = 0
    /// Frames delivered so far (not counting the final cancel frame).
    public private(set) var frameCount = 0

    private let strict: Bool
    private let describedBySource: Bool
    private let surface: Surface?

    private struct Pending {
        var type: UInt16
        var code: UInt16
        var value: Int32
        var place: Int
    }
    private var pending: [Pending] = []
    /// True between a `SYN_DROPPED` and the `SYN_REPORT` that ends the discarded span.
    public private(set) var isDropping = false
    private var resyncing = false

    private var started = false
    private var firstSec: Int64 = 0
    private var firstUsec: Int64 = 0
    private var lastT = 0.0

    private enum MultiTouch { case none, a, b }
    private var protocolMT: MultiTouch = .none
    private var sawAbs = false
    private let describedA: Bool

    private let mtMap: (x: AxisMapping, y: AxisMapping)?
    private let stMap: (x: AxisMapping, y: AxisMapping)?

    // Protocol B.
    private struct Slot {
        var id: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var committedId: Int32 = -1
        var cx: Int32 = 0
        var cy: Int32 = 0
        var positionPlace = -1
    }
    private var slots: [Slot]
    private var currentSlot: Int
    private let maxSlot: Int

    // Protocol A.
    private struct Contact {
        var id: Int
        var x: Int32
        var y: Int32
        var matched: Int
    }
    private var contacts: [Contact] = []
    private var incoming: [(x: Int32, y: Int32, used: Bool)] = []
    /// Squared distance beyond which a protocol A contact is a lift plus a new touch rather than a move:
    /// (a fifth of the axis diagonal)², when the ranges are known; otherwise unlimited.
    private let maxJumpSquared: Int64

    // Single touch.
    private var stTouch = false
    private var stX: Int32 = 0
    private var stY: Int32 = 0
    private var stDown: (id: Int, x: Int32, y: Int32)?

    // Relative.
    private var relX: Double
    private var relY: Double
    private var button = false
    private var relDown: (id: Int, x: Double, y: Double)?

    private var nextId = 0
    private var out: [PointerEvent] = []

    /// - Parameters:
    ///   - strict: file semantics: a position for a slot without a tracking id is an error. Live
    ///     devices pass false, since fingers may already be down when reading starts.
    public init(device: DeviceDescription, options: EventFileOptions = EventFileOptions(), strict: Bool = true) {
        // The protocol is read from what the source described, before explicit ranges are merged in.
        let described = device
        describedBySource = described.isDescribed
        var device = device
        for (code, info) in options.axes { device.absinfo[code] = info }
        self.device = device
        self.strict = strict
        surface = options.surface
        let a = device.absinfo
        if let surface {
            let mx = AxisMapping(range: a[ABS.MT_POSITION_X] ?? a[ABS.X], length: surface.width)
            let my = AxisMapping(range: a[ABS.MT_POSITION_Y] ?? a[ABS.Y], length: surface.height)
            mtMap = (mx != nil && my != nil) ? (mx!, my!) : nil
            let sx = AxisMapping(range: a[ABS.X] ?? a[ABS.MT_POSITION_X], length: surface.width)
            let sy = AxisMapping(range: a[ABS.Y] ?? a[ABS.MT_POSITION_Y], length: surface.height)
            stMap = (sx != nil && sy != nil) ? (sx!, sy!) : nil
            relX = surface.width / 2
            relY = surface.height / 2
        } else {
            mtMap = (.identity, .identity)
            stMap = (.identity, .identity)
            relX = 0
            relY = 0
        }
        if let rx = a[ABS.MT_POSITION_X] ?? a[ABS.X], let ry = a[ABS.MT_POSITION_Y] ?? a[ABS.Y], rx.maximum > rx.minimum, ry.maximum > ry.minimum {
            let w = Int64(rx.maximum) - Int64(rx.minimum), h = Int64(ry.maximum) - Int64(ry.minimum)
            maxJumpSquared = (w * w + h * h) / 25
        } else {
            maxJumpSquared = .max
        }
        // Slots mean protocol B. Protocol A is learned from its SYN_MT_REPORTs instead of from the
        // description: a partial description (a recording made from a pipe) must not mislead.
        if described.has(type: EV.ABS, code: ABS.MT_SLOT) {
            protocolMT = .b
        }
        describedA = !described.has(type: EV.ABS, code: ABS.MT_SLOT) && described.has(type: EV.ABS, code: ABS.MT_POSITION_X)
        if let slotInfo = a[ABS.MT_SLOT], slotInfo.maximum >= 0 {
            maxSlot = Int(slotInfo.maximum)
            currentSlot = min(max(Int(slotInfo.value), 0), maxSlot)
        } else {
            maxSlot = 255
            currentSlot = 0
        }
        slots = [Slot](repeating: Slot(), count: protocolMT == .b ? maxSlot + 1 : 1)
        pending.reserveCapacity(64)
        out.reserveCapacity(16)
    }

    /// Feeds one event; returns a frame when a `SYN_REPORT` completes one that changed a pointer.
    public func feed(_ e: InputEventRecord, place: Int) throws -> Frame? {
        if !started {
            started = true
            firstSec = e.sec
            firstUsec = e.usec
        }
        // Whole microseconds first, so t is the correctly rounded decimal (0.204983, not 0.20498300000000003).
        lastT = Double((e.sec &- firstSec) &* 1_000_000 &+ (e.usec &- firstUsec)) / 1_000_000
        guard EV.isKnownType(e.type) else {
            unknownEventCount += 1
            return nil
        }
        switch e.type {
        case EV.SYN:
            switch e.code {
            case SYN.DROPPED:
                droppedCount += 1
                isDropping = true
                resyncing = true
                pending.removeAll(keepingCapacity: true)
                return nil
            case SYN.REPORT:
                defer { pending.removeAll(keepingCapacity: true) }
                if isDropping {
                    isDropping = false
                    return nil
                }
                return try commit()
            case SYN.MT_REPORT:
                break
            default:
                return nil
            }
        case EV.ABS, EV.KEY, EV.REL:
            break
        default:
            return nil
        }
        if !isDropping {
            pending.append(Pending(type: e.type, code: e.code, value: e.value, place: place))
        }
        return nil
    }

    /// At the end of input: cancels the pointers still down (nil when none), at the last event's time.
    public func finish() -> Frame? {
        out.removeAll(keepingCapacity: true)
        pending.removeAll()
        for i in slots.indices where slots[i].committedId >= 0 {
            emitMT(.cancel, id: Int(slots[i].committedId), slots[i].cx, slots[i].cy)
            slots[i].committedId = -1
            slots[i].id = -1
        }
        for c in contacts { emitMT(.cancel, id: c.id, c.x, c.y) }
        contacts.removeAll()
        if let d = stDown, let m = stMap { out.append(PointerEvent(t: lastT, id: d.id, phase: .cancel, x: m.x.map(d.x), y: m.y.map(d.y))) }
        stDown = nil
        if let d = relDown { out.append(PointerEvent(t: lastT, id: d.id, phase: .cancel, x: d.x, y: d.y)) }
        relDown = nil
        return out.isEmpty ? nil : Frame(t: lastT, events: out)
    }

    // MARK: - Frames

    private func commit() throws -> Frame? {
        out.removeAll(keepingCapacity: true)
        if protocolMT == .none || !sawAbs {
            for p in pending where p.type == EV.ABS || (p.type == EV.SYN && p.code == SYN.MT_REPORT) {
                sawAbs = true
                if protocolMT != .none { break }
                if p.type == EV.SYN {
                    protocolMT = .a
                } else if p.code == ABS.MT_SLOT || p.code == ABS.MT_TRACKING_ID {
                    protocolMT = .b
                } else if ABS.isMultiTouch(p.code) {
                    // Keep looking: a SYN_MT_REPORT later in the frame means protocol A.
                    if !pending.contains(where: { $0.type == EV.SYN && $0.code == SYN.MT_REPORT }) { protocolMT = describedA ? .a : .b }
                }
            }
        }
        switch protocolMT {
        case .b: try commitSlots()
        case .a: try commitContacts()
        case .none: if !describedA { try commitSingleTouch() }
        }
        if describedBySource ? (device.has(type: EV.REL, code: REL.X) || device.has(type: EV.REL, code: REL.Y)) : !sawAbs {
            commitRelative()
        }
        guard !out.isEmpty else { return nil }
        frameCount += 1
        return Frame(t: lastT, events: out)
    }

    private func mapping(_ map: (x: AxisMapping, y: AxisMapping)?, _ axis: String, place: Int) throws -> (x: AxisMapping, y: AxisMapping) {
        guard let map else {
            throw Failure(message: "cannot map onto the surface: no range for \(axis) (the input does not describe the device; pass the axis ranges)", place: place)
        }
        return map
    }

    private func emitMT(_ phase: PointerPhase, id: Int, _ x: Int32, _ y: Int32) {
        let m = mtMap ?? (.identity, .identity)
        out.append(PointerEvent(t: lastT, id: id, phase: phase, x: m.x.map(x), y: m.y.map(y)))
    }

    private func commitSlots() throws {
        var touched = false
        for p in pending where p.type == EV.ABS {
            switch p.code {
            case ABS.MT_SLOT:
                guard p.value >= 0, Int(p.value) <= maxSlot else {
                    throw Failure(message: "slot \(p.value) is beyond the device's maximum slot \(maxSlot)", place: p.place)
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
            if s.id < 0, s.positionPlace >= 0, s.committedId < 0 || s.id != s.committedId {
                if strict && !resyncing {
                    throw Failure(message: "position for slot \(i), which has no tracking id (ABS_MT_TRACKING_ID)", place: s.positionPlace)
                }
            }
            if s.committedId >= 0 || s.id >= 0 {
                _ = try mapping(mtMap, "ABS_MT_POSITION_X/Y", place: s.positionPlace >= 0 ? s.positionPlace : pending.first?.place ?? 0)
            }
            if s.committedId >= 0, s.id != s.committedId {
                emitMT(.up, id: Int(s.committedId), s.cx, s.cy)
            }
            if s.id >= 0 {
                if s.id != s.committedId {
                    emitMT(.down, id: Int(s.id), s.x, s.y)
                } else if s.x != s.cx || s.y != s.cy {
                    emitMT(.move, id: Int(s.id), s.x, s.y)
                }
            }
            slots[i].committedId = s.id
            slots[i].cx = s.x
            slots[i].cy = s.y
            slots[i].positionPlace = -1
        }
    }

    private func commitContacts() throws {
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
            _ = try mapping(mtMap, "ABS_MT_POSITION_X/Y", place: pending.first?.place ?? 0)
        }
        // Nearest neighbour, closest pairs first (contact counts are small: a quadratic scan per pair).
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
                emitMT(.up, id: c.id, c.x, c.y)
            } else {
                let n = incoming[c.matched]
                if n.x != c.x || n.y != c.y {
                    emitMT(.move, id: c.id, n.x, n.y)
                    contacts[i].x = n.x
                    contacts[i].y = n.y
                }
            }
        }
        contacts.removeAll { $0.matched < 0 }
        for n in incoming where !n.used {
            emitMT(.down, id: nextId, n.x, n.y)
            contacts.append(Contact(id: nextId, x: n.x, y: n.y, matched: -1))
            nextId += 1
        }
    }

    private func commitSingleTouch() throws {
        var changed = false
        var place = 0
        for p in pending {
            if p.type == EV.KEY, p.code == BTN.TOUCH {
                stTouch = p.value != 0
                changed = true
                place = p.place
            } else if p.type == EV.ABS, p.code == ABS.X || p.code == ABS.Y {
                if p.code == ABS.X { stX = p.value } else { stY = p.value }
                changed = true
                place = p.place
            }
        }
        guard changed, stTouch || stDown != nil else { return }
        let m = try mapping(stMap, "ABS_X/Y", place: place)
        if let d = stDown {
            if !stTouch {
                out.append(PointerEvent(t: lastT, id: d.id, phase: .up, x: m.x.map(stX), y: m.y.map(stY)))
                stDown = nil
            } else if stX != d.x || stY != d.y {
                out.append(PointerEvent(t: lastT, id: d.id, phase: .move, x: m.x.map(stX), y: m.y.map(stY)))
                stDown = (d.id, stX, stY)
            }
        } else {
            out.append(PointerEvent(t: lastT, id: nextId, phase: .down, x: m.x.map(stX), y: m.y.map(stY)))
            stDown = (nextId, stX, stY)
            nextId += 1
        }
    }

    private func commitRelative() {
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
        relX += Double(dx)
        relY += Double(dy)
        if let surface {
            relX = min(max(relX, 0), surface.width)
            relY = min(max(relY, 0), surface.height)
        }
        if let d = relDown {
            if !button {
                out.append(PointerEvent(t: lastT, id: d.id, phase: .up, x: relX, y: relY))
                relDown = nil
            } else if relX != d.x || relY != d.y {
                out.append(PointerEvent(t: lastT, id: d.id, phase: .move, x: relX, y: relY))
                relDown = (d.id, relX, relY)
            }
        } else if button {
            out.append(PointerEvent(t: lastT, id: nextId, phase: .down, x: relX, y: relY))
            relDown = (nextId, relX, relY)
            nextId += 1
        }
    }
}
