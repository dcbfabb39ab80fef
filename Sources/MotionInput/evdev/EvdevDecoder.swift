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
///   fresh id from a counter. Size-0 contacts are not touches, and `BTN_TOUCH` 0 lifts them all.
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
///
/// Time: seconds from the first event, computed without overflow; going backwards or spanning
/// `InputTime.maxSpan` or more is an error at its place (`strict`), while live devices hold time.
public final class EvdevDecoder: SlotChangeSink {
    /// A decoding problem at the source position (`place`: line number or byte offset) of the event.
    public struct Failure: Error, Equatable {
        public let message: String
        public let place: Int
    }

    /// The most events one frame may hold.
    public static let maxFrameEvents = 65_536

    public let device: DeviceDescription
    /// Events whose type the kernel does not define: ignored, counted here.
    public private(set) var unknownEventCount = 0
    /// `SYN_DROPPED` markers seen.
    public private(set) var droppedCount = 0
    /// Frames delivered so far (not counting the final cancel frame).
    public private(set) var frameCount = 0
    /// Protocol B slots that hold state (tests: state is sized by what the input uses).
    var slotsInUse: Int { slots.count }

    private let strict: Bool
    private let describedBySource: Bool
    /// The description has relative axes (looked up once: the description never changes).
    private let describedRelative: Bool
    private let surface: Surface?
    /// Why positions cannot be mapped onto the surface (said when a position needs it).
    private let mappingProblem: String?

    private let pendingEvents = PendingEvents()
    /// True between a `SYN_DROPPED` and the `SYN_REPORT` that ends the discarded span.
    public private(set) var isDropping = false
    private var resyncing = false

    private var started = false
    private var firstSec: Int64 = 0
    private var firstUsec: Int64 = 0
    private var lastT = 0.0
    /// The timestamp of t 0 (the first frame's report), and the time of the last event: for
    /// putting several devices on one time line (`EvdevFileSource`).
    var origin: (sec: Int64, usec: Int64) { (firstSec, firstUsec) }
    var lastTime: Double { lastT }
    /// The timestamp whose time is `lastT`: the events of a frame share one, so most events skip
    /// the arithmetic and the checks (their time is `lastT`, already checked).
    private var lastStamp: (sec: Int64, usec: Int64)?

    private enum MultiTouch { case none, a, b }
    private var protocolMT: MultiTouch = .none
    private var sawAbs = false
    private let describedA: Bool

    private let mtMap: (x: AxisMapping, y: AxisMapping)?
    private let stMap: (x: AxisMapping, y: AxisMapping)?

    private let slots: ProtocolBSlots
    private var contacts: ProtocolAContacts
    private var singleTouch = SingleTouch()
    private var relative: RelativePointer

    private let ids = PointerIds()
    /// The events of the frame being made. A frame handed out shares this storage, and while
    /// such frames are held (a device set queues every frame one read completes) emptying it
    /// would make new storage: each frame is made in the next of four arrays in turn (`out`
    /// and the spares), so a few frames held at once cost no allocation.
    private var out: [PointerEvent] = []
    private let spareOuts: UnsafeMutablePointer<[PointerEvent]>
    private static let spareOutCount = 3
    private var spareTurn = 0

    /// - Parameters:
    ///   - strict: file semantics: a position for a slot without a tracking id is an error. Live
    ///     devices pass false, since fingers may already be down when reading starts.
    /// The device every pointer event names (`p.device`), for a recording that keeps its device
    /// (written by `motionscript record` or the daemon's flight recorder); nil: none.
    public var deviceTag: PointerDevice?

    public init(device: DeviceDescription, options: EventFileOptions = EventFileOptions(), strict: Bool = true) {
        // The protocol is read from what the source described, before explicit ranges are merged in.
        let described = device
        describedBySource = described.isDescribed
        var device = device
        for (code, info) in options.axes { device.absinfo[code] = info }
        self.device = device
        describedRelative = device.has(type: EV.REL, code: REL.X) || device.has(type: EV.REL, code: REL.Y)
        self.strict = strict
        // Millimetres when known (the command line's default) falls back to raw units here.
        surface = options.resolvedSurface(for: device)
        mappingProblem = options.mappingProblem(for: device)
        let a = device.absinfo
        if let surface {
            let mx = AxisMapping(range: a[ABS.MT_POSITION_X] ?? a[ABS.X], length: surface.width)
            let my = AxisMapping(range: a[ABS.MT_POSITION_Y] ?? a[ABS.Y], length: surface.height)
            mtMap = (mx != nil && my != nil) ? (mx!, my!) : nil
            let sx = AxisMapping(range: a[ABS.X] ?? a[ABS.MT_POSITION_X], length: surface.width)
            let sy = AxisMapping(range: a[ABS.Y] ?? a[ABS.MT_POSITION_Y], length: surface.height)
            stMap = (sx != nil && sy != nil) ? (sx!, sy!) : nil
            relative = RelativePointer(start: (surface.width / 2, surface.height / 2), bounds: surface)
        } else if options.millimetres {
            // No physical size: positions cannot be given in millimetres (`mappingProblem` says why).
            mtMap = nil
            stMap = nil
            relative = RelativePointer(start: (0, 0), bounds: nil)
        } else {
            mtMap = (.identity, .identity)
            stMap = (.identity, .identity)
            relative = RelativePointer(start: (0, 0), bounds: nil)
        }
        if let rx = a[ABS.MT_POSITION_X] ?? a[ABS.X], let ry = a[ABS.MT_POSITION_Y] ?? a[ABS.Y], rx.maximum > rx.minimum, ry.maximum > ry.minimum {
            // In doubles: two full 32-bit ranges squared do not fit 64-bit integers.
            let w = Double(rx.maximum) - Double(rx.minimum), h = Double(ry.maximum) - Double(ry.minimum)
            contacts = ProtocolAContacts(maxJumpSquared: (w * w + h * h) / 25)
        } else {
            contacts = ProtocolAContacts(maxJumpSquared: .infinity)
        }
        // Slots mean protocol B. Protocol A is learned from its SYN_MT_REPORTs instead of from the
        // description: a partial description (a recording made from a pipe) must not mislead.
        if described.has(type: EV.ABS, code: ABS.MT_SLOT) {
            protocolMT = .b
        }
        describedA = !described.has(type: EV.ABS, code: ABS.MT_SLOT) && described.has(type: EV.ABS, code: ABS.MT_POSITION_X)
        var maxSlot = 255, currentSlot = 0
        if let slotInfo = a[ABS.MT_SLOT], slotInfo.maximum >= 0 {
            maxSlot = Int(slotInfo.maximum)
            currentSlot = min(max(Int(slotInfo.value), 0), maxSlot)
        }
        // Slot state is created as slots are used, never from the maximum the header claims.
        slots = ProtocolBSlots(maxSlot: maxSlot, currentSlot: currentSlot)
        spareOuts = .allocate(capacity: Self.spareOutCount)
        for k in 0..<Self.spareOutCount {
            var spare: [PointerEvent] = []
            spare.reserveCapacity(16)
            (spareOuts + k).initialize(to: spare)
        }
        out.reserveCapacity(16)
    }

    deinit {
        spareOuts.deinitialize(count: Self.spareOutCount)
        spareOuts.deallocate()
    }

    /// Feeds one event; returns a frame when a `SYN_REPORT` completes one that changed a pointer.
    /// (Inline: the readers' per-event loops call it for every event.)
    @inline(__always)
    public func feed(_ e: InputEventRecord, place: Int) throws -> Frame? {
        // Events of unknown types are not data: their time is ignored with them.
        guard EV.isKnownType(e.type) else {
            unknownEventCount += 1
            return nil
        }
        if !started {
            started = true
            firstSec = e.sec
            firstUsec = e.usec
        }
        if let stamp = lastStamp, stamp.sec == e.sec, stamp.usec == e.usec {
            // The time of the previous event: lastT, already checked.
        } else {
            let t = InputTime.seconds(sec: e.sec, usec: e.usec, sinceSec: firstSec, usec: firstUsec)
            if let problem = InputTime.problem(t, after: lastT) {
                // Files: an error at its place, as in every format. Live devices: a clock that stepped
                // back (or a corrupt timestamp) holds time where it was, so output stays in order.
                if strict || !t.isFinite || abs(t) >= InputTime.maxSpan {
                    throw Failure(message: problem, place: place)
                }
            } else {
                lastT = t
                lastStamp = (e.sec, e.usec)
            }
        }
        switch e.type {
        case EV.SYN:
            switch e.code {
            case SYN.DROPPED:
                droppedCount += 1
                isDropping = true
                resyncing = true
                pendingEvents.removeAll()
                return nil
            case SYN.REPORT:
                defer { pendingEvents.removeAll() }
                if isDropping {
                    isDropping = false
                    return nil
                }
                if frameCount == 0 {
                    // t counts from the first frame, so it is at t = 0 whatever came before it.
                    firstSec = e.sec
                    firstUsec = e.usec
                    lastT = 0
                    lastStamp = (e.sec, e.usec)
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
            // Frames are bounded so memory is: no device sends this many events between reports.
            guard pendingEvents.count < Self.maxFrameEvents else {
                throw Failure(message: "more than \(Self.maxFrameEvents) events without a SYN_REPORT", place: place)
            }
            pendingEvents.append(PendingEvent(type: e.type, code: e.code, value: e.value, place: place))
        }
        return nil
    }

    /// At the end of input: cancels the pointers still down (nil when none), at the last event's time.
    public func finish() -> Frame? {
        clearOut()
        pendingEvents.removeAll()
        slots.cancelAll(sink: self)
        contacts.cancelAll(emit: emitMT)
        singleTouch.cancelAll(emit: emitST)
        relative.cancelAll(emit: emitRelative)
        return out.isEmpty ? nil : Frame(t: lastT, events: out)
    }

    // MARK: - Frames

    private func commit() throws -> Frame? {
        clearOut()
        let pending = pendingEvents.events
        let (wasMT, wasAbs) = (protocolMT, sawAbs)
        if protocolMT == .none || !sawAbs {
            let hasMTReport = pending.contains { $0.type == EV.SYN && $0.code == SYN.MT_REPORT }
            for p in pending where p.type == EV.ABS || (p.type == EV.SYN && p.code == SYN.MT_REPORT) {
                sawAbs = true
                if protocolMT != .none { break }
                if p.type == EV.SYN {
                    protocolMT = .a
                } else if p.code == ABS.MT_SLOT || p.code == ABS.MT_TRACKING_ID {
                    protocolMT = .b
                } else if ABS.isMultiTouch(p.code) {
                    // Keep looking: a SYN_MT_REPORT later in the frame means protocol A.
                    if !hasMTReport { protocolMT = describedA ? .a : .b }
                }
            }
        }
        // A source that turns out to be multi-touch (or absolute) after all: the pointer the
        // single-touch (or relative) reading had down is cancelled before the new protocol's, so no
        // id is ever down twice.
        if wasMT == .none, protocolMT != .none { singleTouch.cancelAll(emit: emitST) }
        if !describedBySource, !wasAbs, sawAbs { relative.cancelAll(emit: emitRelative) }
        switch protocolMT {
        case .b:
            try slots.commit(pending, strict: strict && !resyncing, duplicateIdsAreErrors: strict, sink: self)
        case .a:
            try contacts.commit(pending, ids: ids, emit: emitMT, checkMapping: checkSlotMapping)
        case .none:
            if !describedA {
                try singleTouch.commit(pending, ids: ids, emit: emitST) { place in
                    _ = try self.mapping(self.stMap, "ABS_X/Y", place: place)
                }
            }
        }
        if describedBySource ? describedRelative : !sawAbs {
            relative.commit(pending, ids: ids, emit: emitRelative)
        }
        guard !out.isEmpty else { return nil }
        frameCount += 1
        return Frame(t: lastT, events: out)
    }

    /// The next array in turn, emptied for the next frame (keeping its storage). A usual frame
    /// holds an event or two: removing them one by one costs less than
    /// `removeAll(keepingCapacity:)`'s general range replacement (either makes new storage when
    /// a frame still shares the array).
    @inline(__always)
    private func clearOut() {
        swap(&out, &spareOuts[spareTurn])
        spareTurn = spareTurn == Self.spareOutCount - 1 ? 0 : spareTurn + 1
        if out.count > 4 {
            out.removeAll(keepingCapacity: true)
        } else {
            while !out.isEmpty { out.removeLast() }
        }
    }

    func checkSlotMapping(place: Int) throws {
        if mtMap == nil { _ = try mapping(mtMap, "ABS_MT_POSITION_X/Y", place: place) }
    }

    func slotChange(_ phase: PointerPhase, id: Int, _ x: Int32, _ y: Int32) { emitMT(phase, id: id, x, y) }

    private func mapping(_ map: (x: AxisMapping, y: AxisMapping)?, _ axis: String, place: Int) throws -> (x: AxisMapping, y: AxisMapping) {
        guard let map else {
            throw Failure(message: "cannot map onto the surface: " + (mappingProblem ?? "no range for \(axis) (the input does not describe the device; pass --axes XMIN:XMAX,YMIN:YMAX)"), place: place)
        }
        return map
    }

    private func emitMT(_ phase: PointerPhase, id: Int, _ x: Int32, _ y: Int32) {
        // A tracking id is the pointer id: a mouse pointer of the same device that holds it yields.
        if phase == .down, ids.down.contains(id) { relative.cancelAll(emit: emitRelative) }
        ids.note(phase, id)
        let m = mtMap ?? (.identity, .identity)
        out.append(PointerEvent(t: lastT, id: id, phase: phase, x: m.x.map(x), y: m.y.map(y), device: deviceTag))
    }

    private func emitST(_ phase: PointerPhase, id: Int, _ x: Int32, _ y: Int32) {
        ids.note(phase, id)
        let m = stMap ?? (.identity, .identity)
        out.append(PointerEvent(t: lastT, id: id, phase: phase, x: m.x.map(x), y: m.y.map(y), device: deviceTag))
    }

    private func emitRelative(_ phase: PointerPhase, id: Int, _ x: Double, _ y: Double) {
        ids.note(phase, id)
        out.append(PointerEvent(t: lastT, id: id, phase: phase, x: x, y: y, device: deviceTag))
    }
}
