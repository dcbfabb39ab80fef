import MotionGestures
import MotionInput

/// Decides, frame by frame, what the desktop's clone of one device gets (docs/desktop.md, "The
/// proxy"). Pure: no I/O, time comes with each call (the device's input time, seconds).
///
/// A touch runs from the first finger down to the last finger up. After each frame the host
/// hands over the strongest claim of the consuming recognizers on this device (`ConsumeClaim`):
/// - `.none`: the frame goes to the clone at once, unchanged (no frame of delay);
/// - `.matching`: it is withheld (queued), as every frame after it while the claim holds;
/// - `.couldBecome` (a consumer waits for more fingers): withheld only within the first
///   `mostFramesHeldForFingers` frames of the touch, then passed;
/// - `.began`: the touch is consumed: what was withheld is dropped, no later frame of the touch
///   reaches the clone, the fingers the clone already had stay still and lift, with its buttons,
///   only when the real touch ends (lifting them early would read as a tap: a click).
/// When the claim falls back to `.none` the withheld frames go to the clone in order, keeping
/// their pace: each is due as long after the release as it came after the first withheld one,
/// and the rest of the touch follows with the same lag (`lag`), dropped at the touch's end. The
/// desktop's pointer acceleration and scrolling measure speed from the times frames arrive, so a
/// burst of held frames would read as a jump; a constant lag reads as the same motion, later.
///
/// Kept consistent whatever happens: `SYN_DROPPED` mid-touch lifts every finger and button the
/// clone has and passes nothing more until the device is idle (no finger down), as does a device
/// taken over mid-touch (`init(state:)`: the desktop saw that touch begin on the real device);
/// `end(at:)` (device lost, end of input) lifts what the clone holds.
///
/// **Pass-all** (`passAll(_:at:)`): the desktop gets its pad back without a grab being let go —
/// while the host is stalled past `StallBound.seconds`, while the daemon is paused, after the
/// emergency gesture. From then every frame passes whatever the consumers say: a frame taken and
/// not decided yet passes at once, what was held is released in order (keeping its pace), and a
/// touch already consumed stays consumed until its real lift (its fingers on the clone lift then,
/// as always); nothing is stuck, nothing lost. `takeBack(_:at:)` ends a reason; the arbiter
/// decides again only once every reason ended *and* no finger is down, so a touch never changes
/// hands in its middle.
///
/// The per-frame path allocates nothing: every buffer is made at `init` and reused (a held
/// queue longer than `heldEventCapacity` events grows once).
public final class TouchArbiter {
    /// A touch that could become one a consumer takes is held at most this many frames at its start.
    public static let mostFramesHeldForFingers = 2
    /// A consumer that neither begins nor fails within this many seconds of input time no longer
    /// holds the touch back (its frames are released): the desktop gets its touch late, never lost.
    public static let longestHold = 2.0

    public let identity: CloneIdentity
    public weak var observer: ProxyDecisionObserver?
    /// Which device of the host this is (told to the observer).
    public let index: Int
    private let sink: CloneSink

    private enum Mode {
        /// Frames pass (or are held) as the claims say.
        case open
        /// A consumer took the touch: nothing passes until the real touch ends.
        case consumed
        /// After SYN_DROPPED, or taken over mid-touch: nothing passes until the device is idle.
        case suspended
    }
    private var mode = Mode.open

    // The real device's state and the clone's, as the events told them: slot ids and the
    // multi-touch values of each slot, the other absolute axes, the keys down.
    private let slotCount: Int
    private var real: DeviceState
    private var clone: DeviceState
    /// The clone missed frames since it was last written (consumed or dropped ones): the next
    /// frame it gets first catches up the values the device did not repeat.
    private var cloneBehind = false

    /// The frame being read (up to its SYN_REPORT).
    private var frame: [InputEventRecord] = []
    private var dropping = false
    /// Held frames' events, end to end; `heldEnds[k]` is where frame k ends, `heldTimes[k]` its time.
    private var held: [InputEventRecord] = []
    private var heldEnds: [Int] = []
    private var heldTimes: [Double] = []
    /// What the clone gets next (a passed frame, a lift), built here.
    private var out: [InputEventRecord] = []
    /// What the next frame after a gap starts with (`prepareCatchUp`).
    private var catchUp: [InputEventRecord] = []

    /// Frames since the touch began (the frame that put its first finger down is 1).
    private var touchFrames = 0
    /// Between a touch's first finger down and the end of its last frame the clone was told of.
    private var inTouch = false
    /// The touch was released after `longestHold`: it is not held again (it can still be consumed).
    private var holdExpired = false
    /// How far behind their own times passed frames are (see "pace").
    public private(set) var lag = 0.0
    private var lastDue = -Double.infinity
    private var stats = (passed: 0, held: 0, consumed: 0)
    /// The last decision (for `ctl status`).
    public private(set) var lastDecision: ProxyDecision?
    /// Touches so far, by what became of them (`ctl status`): every frame passed at once;
    /// held on the way, then released; consumed.
    public private(set) var touches = ProxyTouchCounts()

    /// Why every frame passes now (empty: the consumers decide, once the device is idle).
    public private(set) var passReasons: PassReasons = []
    /// Every frame passes: a reason holds, or one held until the touch under way ends.
    public private(set) var passesAll = false
    /// `take` completed a frame that `decide` has not seen yet.
    private var undecided = false
    /// The `SYN_REPORT` of a frame taken and not decided yet (nil: none).
    public var undecidedReport: InputEventRecord? { undecided ? frame.last : nil }
    /// Input time of the last frame decided.
    public private(set) var lastInputTime = 0.0

    public static let heldEventCapacity = 16_384

    /// `state`: the device's state when the proxy takes it over, as events (a live device's
    /// slots and keys read back, as after `SYN_DROPPED`); when a finger is down then, the
    /// desktop saw that touch begin on the real device, and the clone gets nothing until it ends.
    public init(identity: CloneIdentity, index: Int = 0, sink: CloneSink, state: [InputEventRecord] = []) {
        self.identity = identity
        self.index = index
        self.sink = sink
        // Up to 64 slots are followed (more than any touchpad has); 16 when the device does not say.
        slotCount = min(max(identity.slotCount, identity.slotCount == 0 ? 16 : 1), 64)
        real = DeviceState(slots: slotCount)
        clone = DeviceState(slots: slotCount)
        frame.reserveCapacity(512)
        held.reserveCapacity(Self.heldEventCapacity)
        heldEnds.reserveCapacity(1024)
        heldTimes.reserveCapacity(1024)
        out.reserveCapacity(1024)
        catchUp.reserveCapacity(64 * DeviceState.mtCount)
        real.apply(state)
        if real.anyFinger { mode = .suspended }
    }

    /// Whether no finger is down on the real device (as far as its events said).
    public var isIdle: Bool { !real.anyFinger }
    /// Whether frames are withheld now.
    public var isHolding: Bool { !heldEnds.isEmpty }
    /// Whether the current touch was taken by a consumer.
    public var isConsumed: Bool { mode == .consumed }

    /// Takes one event of the device. True when it completed a frame (a `SYN_REPORT`): the host
    /// then lets the recognizers see the frame and calls `decide(_:at:)` with their claim.
    /// A `SYN_DROPPED` makes its frame, and every event up to the next report, a dropped one.
    @inline(__always)
    public func take(_ event: InputEventRecord) -> Bool {
        if event.type == EV.SYN {
            if event.code == SYN.DROPPED {
                dropping = true
                frame.removeAll(keepingCapacity: true)
                return false
            }
            if event.code != SYN.REPORT { return false }
        }
        frame.append(event)
        if event.type == EV.SYN { undecided = true }
        return event.type == EV.SYN
    }

    /// The frame `take` completed, with the consumers' strongest claim after seeing it.
    /// In pass-all the claim does not count. A frame `passAll` already passed (the host was
    /// stalled while its recognizers looked at it) is not decided again.
    public func decide(_ claim: ConsumeClaim, at t: Double) {
        guard undecided else { return }
        undecided = false
        lastInputTime = t
        defer { if passesAll && passReasons.isEmpty && !real.anyFinger { endPassAll(at: t) } }
        let claim = passesAll ? ConsumeClaim.none : claim
        if dropping {
            dropping = false
            frame.removeAll(keepingCapacity: true)
            dropped(at: t)
            return
        }
        let startsTouch = !real.anyFinger && frameTouches()
        let slotBefore = real.slot
        real.apply(frame)
        // After a gap the frame first brings the clone up to the state it is in.
        if cloneBehind { prepareCatchUp(slotBefore: slotBefore) }
        if startsTouch {
            touchFrames = 0
            inTouch = true
        }
        if real.anyFinger || startsTouch { touchFrames += 1 }
        switch mode {
        case .suspended:
            // Until the device is idle; a new touch beginning (BTN_TOUCH going 1) ends the wait
            // too, when the lift that should have come first was lost with the dropped events.
            guard !real.anyFinger || frameStartsTouchByKey() else { return discard() }
            mode = .open
            guard real.anyFinger else { return discard() }
        case .consumed:
            discard()
            stats.consumed += 1
            if !real.anyFinger { touchEnded(at: t, lift: true) }
            return
        case .open:
            break
        }
        if !catchUp.isEmpty {
            frame.insert(contentsOf: catchUp, at: 0)
            catchUp.removeAll(keepingCapacity: true)
            cloneBehind = false
        }
        decideOpen(claim, at: t)
    }

    /// The catch-up for the frame just applied to `real`, put before it: the values the real
    /// device holds and the clone does not, which the frame does not set (the kernel does not
    /// repeat an unchanged value), for the axes and the slots with a finger down; then the slot
    /// the frame's first multi-touch value is for, when it does not say. No tracking id and no
    /// key is made up.
    private func prepareCatchUp(slotBefore: Int) {
        catchUp.removeAll(keepingCapacity: true)
        for code in 0..<DeviceState.plainAxes where real.hasAbs[code] && real.abs[code] != clone.abs[code] {
            if !frameSets(UInt16(code), slot: nil, slotBefore: slotBefore) {
                catchUp.append(event(EV.ABS, UInt16(code), real.abs[code]))
            }
        }
        var slotSaid = clone.slot
        for s in 0..<slotCount where real.ids[s] >= 0 {
            for c in 0..<DeviceState.mtCount where DeviceState.mtFirst + UInt16(c) != ABS.MT_TRACKING_ID {
                let i = s * DeviceState.mtCount + c
                let code = DeviceState.mtFirst + UInt16(c)
                guard real.mt[i] != clone.mt[i], !frameSets(code, slot: s, slotBefore: slotBefore) else { continue }
                if slotSaid != s {
                    catchUp.append(event(EV.ABS, ABS.MT_SLOT, Int32(s)))
                    slotSaid = s
                }
                catchUp.append(event(EV.ABS, code, real.mt[i]))
            }
        }
        if let first = frame.firstIndex(where: { $0.type == EV.ABS && $0.code >= ABS.MT_SLOT && $0.code < 0x40 }),
           frame[first].code != ABS.MT_SLOT, slotSaid != slotBefore {
            catchUp.append(event(EV.ABS, ABS.MT_SLOT, Int32(slotBefore)))
        }
    }

    /// Whether the frame sets `code` (of slot `slot` for a multi-touch value).
    private func frameSets(_ code: UInt16, slot: Int?, slotBefore: Int) -> Bool {
        var current = slotBefore
        for e in frame where e.type == EV.ABS {
            if e.code == ABS.MT_SLOT { current = Int(e.value) } else if e.code == code && (slot == nil || slot == current) { return true }
        }
        return false
    }

    /// A decision that fell due with time alone (a hold began, a multi-tap timed out): the claim
    /// as it is now, at input time `t`.
    public func update(_ claim: ConsumeClaim, at t: Double) {
        guard mode == .open, !heldEnds.isEmpty, !passesAll else { return }
        if claim == .began {
            consume(at: t)
            if !real.anyFinger { touchEnded(at: t, lift: true) }
        } else if claim < .matching && !(claim == .couldBecome && touchFrames <= Self.mostFramesHeldForFingers)
                    || t - heldTimes[0] > Self.longestHold {
            if t - heldTimes[0] > Self.longestHold { holdExpired = true }
            release(at: t)
            if !real.anyFinger { touchEnded(at: t, lift: false) }
        }
    }

    /// The device went away or input ended: what is held is dropped and the clone lifts
    /// everything it holds (no stuck finger, no stuck button).
    public func end(at t: Double) {
        if !heldEnds.isEmpty { dropHeld() }
        frame.removeAll(keepingCapacity: true)
        undecided = false
        liftClone(at: t, why: "end")
        mode = .open
        real = DeviceState(slots: slotCount)
    }

    // MARK: - Pass-all

    /// Every frame passes from now on, for `reason` (see the type's comment). A frame taken and
    /// not decided passes now (`undecidedAt`: its own input time; `undecidedReport` gives its
    /// `SYN_REPORT`); held frames are released in order, due from `t` at their pace.
    public func passAll(_ reason: PassReasons, at t: Double, undecidedAt: Double? = nil) {
        passReasons.insert(reason)
        guard !passesAll else { return }
        tell(.passing(t: t, why: passReasons.word))
        if undecided {
            // With frames held it joins them (all go out from `t`); else it passes at its own time.
            decide(heldEnds.isEmpty ? .none : .matching, at: undecidedAt ?? t)
        }
        passesAll = true
        if mode == .open, !heldEnds.isEmpty {
            release(at: t)
            if !real.anyFinger { touchEnded(at: t, lift: false) }
        }
    }

    /// `reason` no longer holds; the consumers decide again once no reason does and no finger
    /// is down (now, when the device is idle; else at the frame that lifts the last finger).
    public func takeBack(_ reason: PassReasons, at t: Double) {
        passReasons.remove(reason)
        if passesAll && passReasons.isEmpty && !real.anyFinger && !undecided { endPassAll(at: t) }
    }

    private func endPassAll(at t: Double) {
        passesAll = false
        tell(.proxying(t: t))
    }

    // MARK: - Decisions

    private func decideOpen(_ claim: ConsumeClaim, at t: Double) {
        let holdsForFingers = claim == .couldBecome && touchFrames <= Self.mostFramesHeldForFingers
        let expired = !heldEnds.isEmpty && t - heldTimes[0] > Self.longestHold
        if expired { holdExpired = true }
        if claim == .began {
            // The frame joins what is dropped.
            holdFrame(at: t)
            consume(at: t)
            if !real.anyFinger { touchEnded(at: t, lift: true) }
        } else if (claim == .matching || holdsForFingers) && !holdExpired {
            holdFrame(at: t)
        } else {
            if !heldEnds.isEmpty {
                holdFrame(at: t)
                release(at: t)
            } else {
                pass(at: t)
            }
            if !real.anyFinger { touchEnded(at: t, lift: false) }
        }
    }

    private func holdFrame(at t: Double) {
        if heldEnds.isEmpty { tell(.held(t: t)) }
        held.append(contentsOf: frame)
        heldEnds.append(held.count)
        heldTimes.append(t)
        stats.held += 1
        frame.removeAll(keepingCapacity: true)
    }

    /// The held frames to the clone, in order, each as long after now as it came after the first.
    private func release(at t: Double) {
        let first = heldTimes[0]
        // Evdev times are whole microseconds: so is the lag (no 0.020000000000000018).
        lag = max(0, ((t - first) * 1e6).rounded() / 1e6)
        var start = 0
        for k in heldEnds.indices {
            out.removeAll(keepingCapacity: true)
            out.append(contentsOf: held[start..<heldEnds[k]])
            emit(due: heldTimes[k] + lag)
            start = heldEnds[k]
        }
        stats.passed += heldEnds.count
        tell(.released(t: t, frames: heldEnds.count, lag: lag))
        held.removeAll(keepingCapacity: true)
        heldEnds.removeAll(keepingCapacity: true)
        heldTimes.removeAll(keepingCapacity: true)
    }

    private func pass(at t: Double) {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: frame)
        frame.removeAll(keepingCapacity: true)
        emit(due: t + lag)
        stats.passed += 1
    }

    private func consume(at t: Double) {
        let dropped = heldEnds.count
        dropHeld()
        stats.consumed += dropped
        mode = .consumed
        cloneBehind = true
        tell(.consumed(t: t, frames: dropped))
    }

    private func dropHeld() {
        held.removeAll(keepingCapacity: true)
        heldEnds.removeAll(keepingCapacity: true)
        heldTimes.removeAll(keepingCapacity: true)
        cloneBehind = true
    }

    private func discard() {
        frame.removeAll(keepingCapacity: true)
        cloneBehind = true
    }

    private func dropped(at t: Double) {
        // The device's state past the gap is unknown until its next frames: the touch in
        // progress is over for the clone.
        if !heldEnds.isEmpty { dropHeld() }
        liftClone(at: t, why: "dropped")
        let wasConsumed = mode == .consumed
        if real.anyFinger || mode == .consumed {
            mode = .suspended
        }
        // The touch is over for the clone: its account ends here.
        if inTouch {
            inTouch = false
            closeAccount(at: t, consumed: wasConsumed)
        }
        lag = 0
        holdExpired = false
        cloneBehind = true
    }

    private func touchEnded(at t: Double, lift: Bool) {
        guard heldEnds.isEmpty else { return }  // a multi-tap still holds the touches so far
        if lift { liftClone(at: t, why: "touch-end") }
        let wasConsumed = mode == .consumed
        mode = .open
        holdExpired = false
        guard inTouch else { return }
        inTouch = false
        closeAccount(at: t, consumed: wasConsumed)
        lag = 0
        touchFrames = 0
    }

    /// A touch's account: told, and counted by what became of it.
    private func closeAccount(at t: Double, consumed: Bool) {
        tell(.touch(t: t, passed: stats.passed, held: stats.held, consumed: stats.consumed))
        if consumed || stats.consumed > 0 {
            touches.consumed += 1
        } else if stats.held > 0 {
            touches.held += 1
        } else {
            touches.passed += 1
        }
        stats = (0, 0, 0)
    }

    /// Lifts every finger and releases every key the clone holds, in one frame.
    private func liftClone(at t: Double, why: String) {
        out.removeAll(keepingCapacity: true)
        var fingers = 0
        for s in 0..<slotCount where clone.ids[s] >= 0 {
            out.append(event(EV.ABS, ABS.MT_SLOT, Int32(s)))
            out.append(event(EV.ABS, ABS.MT_TRACKING_ID, -1))
            fingers += 1
        }
        var buttons = 0
        for k in clone.keys.indices where clone.down[k] {
            out.append(event(EV.KEY, clone.keys[k], 0))
            if !DeviceState.isToolOrTouch(clone.keys[k]) { buttons += 1 }
        }
        guard !out.isEmpty else { return }
        out.append(event(EV.SYN, SYN.REPORT, 0))
        emit(due: t + lag)
        cloneBehind = true
        tell(.lifted(t: t, fingers: fingers, buttons: buttons, why: why))
    }

    /// Whether the frame being decided puts a finger down (a tracking id or BTN_TOUCH 1).
    private func frameTouches() -> Bool {
        for e in frame {
            if e.type == EV.ABS && e.code == ABS.MT_TRACKING_ID && e.value >= 0 { return true }
            if e.type == EV.KEY && e.code == BTN.TOUCH && e.value == 1 { return true }
        }
        return false
    }

    private func frameStartsTouchByKey() -> Bool {
        for e in frame where e.type == EV.KEY && e.code == BTN.TOUCH && e.value == 1 { return true }
        return false
    }

    private func emit(due: Double) {
        let due = max(due, lastDue)
        lastDue = due
        clone.apply(out)
        out.withUnsafeBufferPointer { sink.write($0, due: due) }
    }

    private func tell(_ decision: ProxyDecision) {
        lastDecision = decision
        observer?.proxy(decision, device: index)
    }

    private func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
        InputEventRecord(sec: 0, usec: 0, type: type, code: code, value: value)
    }
}
