import MotionStreams

/// The common part of every recognizer: which pointers it follows (those that go down inside
/// its element while it is enabled), its state, its current value and its listeners.
/// Subclasses implement `process(t:)`, called once per frame that touched their pointers, and
/// may implement `advance(to:)` for decisions that fall due with time alone (a tap's interval).
///
/// Input time: recognizers only know the time the input tells them. `handle(_:)` first advances
/// to the frame's time; a host that wants time-based decisions without a frame (end of input)
/// calls `advance(to:)` (`PointerDispatcher.advance(to:)` / `finish()` do it for all).
open class GestureRecognizer {
    /// The element pointers must go down in to be tracked; values are converted into it on request.
    public let element: Element
    /// A disabled recognizer takes no new pointers. Disabling it drops the pointers it tracks:
    /// an active gesture is cancelled (listeners see `cancelled`), anything else silently
    /// returns to `possible`.
    public var isEnabled = true {
        didSet {
            guard oldValue && !isEnabled else { return }
            if state.isActive { write(state: .cancelled, because: observer == nil ? nil : RecognizerReason(.disabled)) }
            reset()
        }
    }
    /// The current snapshot; `value.state` is the recognizer state. Subclasses update its
    /// geometry in `process(t:)` and report a new state with `write(state:)`, which notifies.
    /// Reading or writing it first runs the `process(t:)` that quiet frames put off
    /// (`movesAreQuiet`), so it always says what processing every frame would have said.
    public var value: GestureValue {
        get {
            if hasDeferredMove { processDeferredMove() }
            return current
        }
        set {
            if hasDeferredMove { processDeferredMove() }
            current = newValue
        }
        _modify {
            if hasDeferredMove { processDeferredMove() }
            yield &current
        }
    }
    /// `value` as last written (the frames since, if quiet, not processed yet).
    private var current: GestureValue
    /// The recognizer state (`value.state`).
    public var state: GestureState { value.state }

    /// Tracked pointers in touch-down order, as of the end of the current frame.
    public internal(set) var pointers: [TrackedPointer] {
        get {
            if hasQuietPosition { writeQuietPosition() }
            return tracked
        }
        set {
            if hasQuietPosition { writeQuietPosition() }
            tracked = newValue
        }
        _modify {
            if hasQuietPosition { writeQuietPosition() }
            yield &tracked
        }
    }
    /// `pointers`, but for the position quiet frames moved the one pointer to (`quietPosition`).
    private var tracked: [TrackedPointer] = []
    /// Pointers that lifted in the current frame, with the position they lifted at.
    public internal(set) var lifted: [TrackedPointer] = []
    /// Whether a pointer went down in the current frame and is tracked (what `pointerSetChanged`
    /// asks besides lifted pointers, without a walk over the pointers).
    private var pointerAddedInFrame = false
    /// Whether a tracked pointer was cancelled in the current frame (all are then dropped).
    public internal(set) var wasCancelled = false
    /// `fingers = N`: the gesture is made with exactly N pointers. A recognizer with it set
    /// tracks every pointer that goes down in its element; when more than N are down it fails
    /// (or, active, is cancelled) and ignores those pointers until they all lifted. Recognizers
    /// do not begin with fewer than N (see `hasRequiredFingers`).
    public var fingers: Int? {
        didSet { isQuiet = false }
    }
    /// The most pointers tracked at once since the gesture's first pointer went down: a final
    /// value reports it as `pointers` (a 3-finger swipe ends with `pointers` 3, not 0).
    public internal(set) var peakPointers = 0
    /// Pointers of a gesture that cannot happen any more (extra fingers, a required recognizer
    /// that won) are ignored until every one of them lifted.
    public final internal(set) var isIgnoringUntilLift = false
    /// `consume = true`: under `--proxy` a touch this recognizer begins on never reaches the
    /// desktop's clone of the device, and one it can still match is withheld (`consumeClaim`).
    public var consumes = false
    /// The device of the touch the recognizer follows (its first pointer's; nil for event files
    /// that name no device): which device's arbiter `consumeClaim` speaks to.
    public private(set) var touchDevice: PointerDevice?
    /// Set when a consuming recognizer began or recognized (what its listeners see, so not while
    /// held for a failure requirement); read and cleared by the proxy (`takeConsumeBegan`).
    public private(set) var consumeBegan = false
    /// Recognizers this one waits to fail (`require(toFail:)`), with their listener ids.
    var failureRequirements: [(recognizer: GestureRecognizer, listener: Int)] = []
    /// Values held back while waiting for a failure requirement (began/changed/ended, or recognized).
    var heldForRequirement: [GestureValue] = []

    private var listeners = ListenerList<Listener>()

    /// Told of every state change with its reason (`ctl monitor --recognizers`, `run --explain`).
    /// Nil, the usual case: one nil check where a state is decided, and nothing is built.
    public var observer: RecognizerObserver?
    /// Creation order in its dispatcher, from 1 (0: not added): the N of `name` (`swipe#N`).
    public internal(set) var serial = 0
    /// Where the script made it (set by the Lua host), for monitors.
    public var creationSite: SourceLocation?
    /// The last event told to the observer: a `changed` is told once after `began`, not per frame.
    private var lastTold: RecognizerChange.Event?
    /// The input time of the last touch told as turned away by `devices =` (once per frame).
    private var lastFilteredTell = -Double.infinity
    /// The reason `write(state:because:)` hands to `write(state:)` for its call (only while observed).
    private var pendingReason: RecognizerReason?

    /// A listener kept in a concrete struct: called as written, not through a thunk that passes
    /// each snapshot the way a generic function type would.
    private struct Listener {
        let call: (GestureValue) -> Void
    }

    /// A recognizer of `kind` watching pointers that go down inside `element`.
    public init(kind: GestureKind, element: Element) {
        self.element = element
        current = GestureValue(kind: kind)
        tracked.reserveCapacity(10)
        lifted.reserveCapacity(10)
        appRejected.reserveCapacity(10)
        advancesWithTime = decidesOnTime
        // The Swift runtime looks up the type `RecognizerReason?` by its mangled name the first
        // time one is destroyed, at the first recognition (some 9,000 instructions on that
        // frame): done here, at setup (docs/performance.md "The first frames").
        _ = Self.reasonType
    }

    private static let reasonType: Any.Type = RecognizerReason?.self

    /// How many pointers the recognizer follows at most.
    open var maximumPointers: Int { Int.max }

    /// Whether the recognizer makes decisions when input time passes without a frame (a tap's
    /// interval, a hold's duration): its values are then stamped with the time they fell due.
    /// `advance(to:)` is called only when this is true (an override of it must say so here).
    open var decidesOnTime: Bool { false }
    /// `decidesOnTime`, read once when made: each frame (and the dispatcher's walk) skips the
    /// call into an `advance(to:)` that decides nothing, for every recognizer but taps and holds.
    var advancesWithTime = false

    /// The fewest pointers the gesture is made with when `fingers` is not set: 1, and 2 for
    /// swipes and holds (one finger on a touchpad moves or rests as the pointer; a one-finger
    /// swipe or hold says `fingers = 1`).
    open var minimumFingers: Int { 1 }

    /// With `fingers = N`: whether exactly N pointers are down now; without it, whether at least
    /// `minimumFingers` are.
    public var hasRequiredFingers: Bool { fingers.map { pointers.count == $0 } ?? (pointers.count >= minimumFingers) }

    // Quiet frames. Most frames only move the pointers a recognizer already follows, and most
    // recognizers can do nothing with them: a 3-finger swipe under one finger, a tap that
    // already failed, a pinch without its second finger. Each recognizer says when it is in
    // such a state (`movesAreQuiet`, asked after each frame it handled in full); its next frames
    // that only move pointers then update their positions and `value.t`, and the `process(t:)`
    // of the last of them is put off until something reads or writes `value` or a frame that
    // changes more comes (`processDeferredMove`): in these states, processing only the last of
    // several such frames leaves what processing each did.

    /// Whether the next frames that only move pointers are taken in quietly (see above).
    @usableFromInline final private(set) var isQuiet = false
    /// False: every frame is handled in full (the tests' reference for what quiet frames must
    /// leave).
    var takesQuietFrames = true
    /// A quiet frame moved a tracked pointer: `process(t:)` for it is still to run, at
    /// `deferredMoveTime` (the frame's time).
    private var hasDeferredMove = false
    private var deferredMoveTime = 0.0
    /// Where quiet frames moved the one pointer followed, and where it was when the last of
    /// them started, not yet written into `pointers` (whose first read or write does it): a
    /// write there costs a check that the array is not shared.
    private var quietPosition = Point.zero
    private var quietStart = Point.zero
    private var hasQuietPosition = false
    /// Set by a recognizer whose quiet frames each leave something of their own (a drag's
    /// velocity sample): the times of the put-off frames before the last are kept in
    /// `earlierQuietMoves`, for `processEarlierQuietMoves()`.
    var keepsEarlierQuietMoves = false {
        didSet { earlierQuietMoves.reserveCapacity(Self.earlierQuietMovesKept) }
    }
    private(set) var earlierQuietMoves: [Double] = []
    /// At most this many are kept: the next quiet frame processes them first.
    static var earlierQuietMovesKept: Int { 32 }

    /// Whether, as the recognizer is now (after a frame it handled in full, with nothing lifted,
    /// cancelled or added in it, no value held for a failure requirement, and a state that is
    /// not final), frames that only move its pointers may skip `process(t:)` and `advance(to:)`
    /// until the next frame that changes more, `process(t:)` then running once for the last of
    /// them. True only when, in this state:
    /// - `process(t:)` for such a frame writes no state, reads no pointer's `start`, and leaves
    ///   the same as when it ran for each of several such frames in turn (only the last frame's
    ///   positions and time count);
    /// - `advance(to:)` decides nothing and `nextDecisionTime` is nil (recognizers that decide
    ///   on time);
    /// - pointers ignored until they lift (`isIgnoringUntilLift`: `process(t:)` is not called)
    ///   count as quiet for `process(t:)`.
    /// Nothing but a frame, `write(state:)`, `reset()` and `abandon` changes what it depends on.
    open var movesAreQuiet: Bool { false }

    /// Feeds one input frame. Time first advances to the frame's time (see `advance(to:)`);
    /// then frames that do not touch this recognizer's pointers are ignored.
    public final func handle(_ frame: Frame) {
        if isQuiet && (tookQuietly(frame) || takeQuietly(frame)) { return }
        if hasDeferredMove { processDeferredMove() }
        handleInFull(frame)
        isQuiet = lifted.isEmpty && !wasCancelled && !pointerAddedInFrame && heldForRequirement.isEmpty
            && (current.state == .possible || current.state.isActive) && takesQuietFrames && movesAreQuiet
    }

    /// The usual frame (one event) while quiet and following one pointer: taken in (true)
    /// when it moves a pointer; false otherwise.
    @inline(__always)
    private func tookQuietly(_ frame: Frame) -> Bool {
        guard frame.events.count == 1, frame.events[0].phase == .move, tracked.count == 1 else { return false }
        if tracked[0].id == frame.events[0].id {
            quietStart = hasQuietPosition ? quietPosition : tracked[0].position
            quietPosition = Point(x: frame.events[0].x, y: frame.events[0].y)
            hasQuietPosition = true
            current.t = frame.t
            if !isIgnoringUntilLift {
                if hasDeferredMove && keepsEarlierQuietMoves { keepEarlierQuietMove() }
                hasDeferredMove = true
                deferredMoveTime = frame.t
            }
        } else if hasQuietPosition {
            // Another pointer moved: this one's frame starts where the last one left it.
            quietStart = quietPosition
        } else if tracked[0].start != tracked[0].position {
            quietStart = tracked[0].position
            quietPosition = tracked[0].position
            hasQuietPosition = true
        }
        return true
    }

    /// Writes the one pointer's position quiet frames took in into `pointers`.
    @inline(never)
    private func writeQuietPosition() {
        hasQuietPosition = false
        tracked.withUnsafeMutableBufferPointer { tracked in
            tracked[0].start = quietStart
            tracked[0].position = quietPosition
        }
    }

    /// A frame while quiet that `tookQuietly` did not take: true when it only moves pointers
    /// (taken in: positions and time), false when it must be handled in full.
    @inline(never)
    private func takeQuietly(_ frame: Frame) -> Bool {
        let events = frame.events
        for k in events.indices where events[k].phase != .move { return false }
        // (A quiet recognizer follows pointers; without, the full path has its own work.)
        guard !pointers.isEmpty else { return false }
        var touched = false
        pointers.withUnsafeMutableBufferPointer { tracked in
            // Each frame starts where the last one left them (`start`); all existed before.
            for i in tracked.indices { tracked[i].start = tracked[i].position }
            for k in events.indices {
                let id = events[k].id
                for i in tracked.indices where tracked[i].id == id {
                    tracked[i].position = Point(x: events[k].x, y: events[k].y)
                    touched = true
                    break
                }
            }
        }
        if touched { tookQuietMove(at: frame.t) }
        return true
    }

    /// A quiet frame at `t` moved a tracked pointer: its time is the value's, and its
    /// `process(t:)` is put off (not for pointers ignored until they lift).
    @inline(__always)
    private func tookQuietMove(at t: Double) {
        current.t = t
        if !isIgnoringUntilLift {
            if hasDeferredMove && keepsEarlierQuietMoves { keepEarlierQuietMove() }
            hasDeferredMove = true
            deferredMoveTime = t
        }
    }

    /// The quiet frame put off so far is no longer the last: its time is kept.
    @inline(never)
    private func keepEarlierQuietMove() {
        if earlierQuietMoves.count == Self.earlierQuietMovesKept { processKeptQuietMoves() }
        earlierQuietMoves.append(deferredMoveTime)
    }

    private func processKeptQuietMoves() {
        processEarlierQuietMoves()
        earlierQuietMoves.removeAll(keepingCapacity: true)
    }

    /// The `process(t:)` quiet frames put off: for the last of them, its pointers where they
    /// are (no frame that changed them came since), its flags as they were (clean); what the
    /// earlier ones leave of their own first (`keepsEarlierQuietMoves`).
    @inline(never)
    private func processDeferredMove() {
        hasDeferredMove = false
        if !earlierQuietMoves.isEmpty { processKeptQuietMoves() }
        process(t: deferredMoveTime)
    }

    /// With `keepsEarlierQuietMoves`: what the put-off frames at `earlierQuietMoves`, in order,
    /// leave that the last one's `process(t:)` does not redo.
    func processEarlierQuietMoves() {}

    /// `handle(_:)` for a frame taken in full.
    @inline(never)
    private func handleInFull(_ frame: Frame) {
        if advancesWithTime { advance(to: frame.t) }
        if !heldForRequirement.isEmpty, !failureRequirements.contains(where: { $0.recognizer.isInProgress }) {
            // The recognizers waited for stopped without failing or recognizing (disabled).
            releaseHeld(at: value.t, rival: nil)
        }
        if value.state == .ended || value.state == .cancelled || value.state == .failed
            || value.state == .recognized {
            value.state = .possible  // the silent reset after a final state
        }
        if !lifted.isEmpty { lifted.removeAll(keepingCapacity: true) }
        wasCancelled = false
        pointerAddedInFrame = false
        var touched = false
        // By index: an event is read field by field, not copied (with its device) per event.
        let events = frame.events
        // One event (one finger moving, the usual frame) without the loop's set-up.
        var onlyMoves = events.count != 1 || events[0].phase == .move
        if events.count > 1 {
            for k in events.indices where events[k].phase != .move {
                onlyMoves = false
                break
            }
        }
        if pointers.isEmpty {
            peakPointers = 0
        } else {
            pointers.withUnsafeMutableBufferPointer { tracked in
                if tracked.count == 1 && events.count == 1 {
                    // The commonest frame (one finger moving), without the loops' set-up.
                    tracked[0].start = tracked[0].position
                    tracked[0].existedBefore = true
                    if onlyMoves && tracked[0].id == events[0].id {
                        tracked[0].position = Point(x: events[0].x, y: events[0].y)
                        touched = true
                    }
                    return
                }
                for i in tracked.indices {
                    tracked[i].start = tracked[i].position
                    tracked[i].existedBefore = true
                }
                // The usual frame (pointers moving) is applied in the same pass over the pointers.
                guard onlyMoves else { return }
                for k in events.indices {
                    let id = events[k].id
                    for i in tracked.indices where tracked[i].id == id {
                        tracked[i].position = Point(x: events[k].x, y: events[k].y)
                        touched = true
                        break
                    }
                }
            }
        }
        if !onlyMoves { handleChanges(events, at: frame.t, touched: &touched) }
        if wasCancelled {
            lifted.append(contentsOf: pointers)
            pointers.removeAll(keepingCapacity: true)
        }
        guard touched else { return }
        value.t = frame.t
        peakPointers = max(peakPointers, pointers.count + lifted.count)
        if let fingers, !isIgnoringUntilLift, peakPointers > fingers {
            // More fingers than this gesture is made with: it cannot be this gesture.
            abandonForExtraFingers(fingers)
        }
        if isIgnoringUntilLift {
            if pointers.isEmpty { isIgnoringUntilLift = false }
            return
        }
        process(t: frame.t)
    }

    /// The events of a frame that does more than move pointers (downs, lifts, cancels), in
    /// input order. Apart from `handle(_:)`, whose usual frame (pointers moving) needs none of it.
    @inline(never)
    private func handleChanges(_ events: [PointerEvent], at t: Double, touched: inout Bool) {
        for k in events.indices {
            switch events[k].phase {
            case .down:
                let event = events[k]
                let capacity = fingers == nil ? maximumPointers : Int.max
                guard isEnabled, !wasCancelled, pointers.count < capacity,
                      index(of: event.id) == nil, element.contains(event.point) else { continue }
                guard accepts(event.device) else {
                    if observer != nil { tellFiltered(event.device, at: t) }
                    continue
                }
                // A gesture begins with its first pointer: `apps =` is decided then, and a touch
                // it turned away stays turned away, every later pointer of it too, until it lifted.
                if !appRejected.isEmpty || pointers.isEmpty && !isInProgress && !beginsUnderFocusedApp() {
                    if observer != nil, appRejected.isEmpty { tellAppRejected(at: t) }
                    appRejected.append(event.id)
                    continue
                }
                if pointers.isEmpty { touchDevice = event.device }
                pointers.append(TrackedPointer(id: event.id, downPosition: event.point, downTime: t,
                                               start: event.point, position: event.point,
                                               existedBefore: false))
                pointerAddedInFrame = true
                touched = true
            case .move:
                guard let i = index(of: events[k].id) else { continue }
                pointers[i].position = Point(x: events[k].x, y: events[k].y)
                touched = true
            case .up:
                guard let i = index(of: events[k].id) else {
                    if !appRejected.isEmpty { forgetRejected(events[k].id) }
                    continue
                }
                var pointer = pointers.remove(at: i)
                pointer.position = Point(x: events[k].x, y: events[k].y)
                lifted.append(pointer)
                touched = true
            case .cancel:
                guard index(of: events[k].id) != nil else {
                    if !appRejected.isEmpty { forgetRejected(events[k].id) }
                    continue
                }
                wasCancelled = true
                touched = true
            }
        }
    }

    /// More fingers than `fingers = N` went down. Apart from `handle(_:)`, whose every frame
    /// should not carry the reason's making.
    @inline(never)
    private func abandonForExtraFingers(_ fingers: Int) {
        abandon(because: observer == nil ? nil
            : RecognizerReason(.tooManyFingers, value: Double(peakPointers), limit: Double(fingers), unit: .fingers))
    }

    /// Gives up on the current gesture: cancelled if active, failed otherwise, and its pointers
    /// are ignored until they all lifted.
    func abandon(because reason: RecognizerReason?) {
        if hasDeferredMove { processDeferredMove() }
        isQuiet = false
        // Listeners that never saw the gesture start (it was held back) see it fail.
        let unseen = !heldForRequirement.isEmpty
        heldForRequirement.removeAll()
        if unseen || state == .possible {
            write(state: .failed, because: reason)
        } else if state.isActive {
            write(state: .cancelled, because: reason)
        }
        value.state = .possible
        didReset()
        isIgnoringUntilLift = !pointers.isEmpty
    }

    // MARK: Consuming (`consume = true`, the proxy)

    /// What this recognizer says of the touch on `device` now (`ConsumeClaim`); `.none` unless it
    /// consumes. Asked after each frame and time step, so it reads no more than a few fields.
    public func consumeClaim(on device: PointerDevice?) -> ConsumeClaim {
        guard consumes else { return .none }
        if consumeBegan { return touchDevice === device ? .began : .none }
        return touchDevice === device ? claimOfTouch : .none
    }

    /// The claim on the touch this recognizer follows (its device already matched): subclasses
    /// that wait between touches (a multi-tap) say so here.
    open var claimOfTouch: ConsumeClaim {
        guard !pointers.isEmpty, !isIgnoringUntilLift, isEnabled else { return .none }
        if !heldForRequirement.isEmpty { return .matching }
        if state.isActive { return .began }
        guard state == .possible else { return .none }
        let count = pointers.count
        if let fingers { return count < fingers ? .couldBecome : .matching }
        return count < minimumFingers ? .couldBecome : .matching
    }

    /// Reads and clears `consumeBegan` (the proxy, once it took the touch).
    public func takeConsumeBegan() -> Bool {
        defer { consumeBegan = false }
        return consumeBegan
    }

    /// Another consumer took this touch first (the proxy's arbitration, as `requireToFail`): the
    /// gesture fails, or is cancelled if it was active, and its pointers are ignored until they lift.
    public func yieldTouch(to winner: GestureRecognizer, at t: Double) {
        consumeBegan = false
        guard isInProgress || state.isActive else { return }
        value.t = max(value.t, t)
        abandon(because: observer == nil ? nil : RecognizerReason(.rivalBegan, rival: winner, detail: "consumed"))
    }

    /// Computes the new value and state after the frame's pointer changes were applied.
    open func process(t: Double) {}

    /// Makes the decisions that fall due when input time reaches `t` with no new input (a tap
    /// that waited past its interval fails). Called by `handle(_:)` before each frame and by the
    /// host for the end of input (`advance(to: .infinity)`); decisions are stamped with the time
    /// they fell due, not with `t`. Time never goes back: an earlier `t` does nothing. Only
    /// recognizers whose `decidesOnTime` is true are advanced by frames and the dispatcher.
    open func advance(to t: Double) {}

    /// `devices = "touchpad"` (or a list): only pointers from live devices matching one of these
    /// (a kind, or a name glob; see `PointerDevice.matches`) go down for this recognizer. Pointers
    /// without a device (event files) always do. Nil: every device.
    public var devices: [String]?

    @inline(__always)
    func accepts(_ device: PointerDevice?) -> Bool {
        guard let devices, let device else { return true }
        return devices.contains { device.matches($0) }
    }

    /// `apps = "firefox"` (or a list, `!` excluding): gestures begin only while a matching
    /// application has the focus, decided when the gesture's first pointer goes down and kept
    /// for the whole gesture (a focus change under a swipe does not cancel it). While the focus
    /// is unknown (no provider) only exclusions alone (`"!kitty"`) begin (`AppFocus.admits`).
    /// Nil: any application.
    public var apps: AppFilter?
    /// The focused application (the dispatcher's, set by `PointerDispatcher.add`).
    public internal(set) var focus: AppFocus?
    /// Pointers of a touch that `apps` turned away, until they lift.
    private var appRejected: [Int] = []

    /// At a gesture's first pointer: stamps the value with the focused app and says whether
    /// `apps` lets the gesture begin.
    private func beginsUnderFocusedApp() -> Bool {
        guard let focus else { return apps == nil }
        value.appSerial = Int32(truncatingIfNeeded: focus.serial)
        guard let apps else { return true }
        return focus.admits(apps)
    }

    private func forgetRejected(_ id: Int) {
        if let i = appRejected.firstIndex(of: id) { appRejected.remove(at: i) }
    }

    /// The earliest input time at which `advance(to:)` would decide something without new input
    /// (nil: nothing waits on time). A live host sleeps until then, so decisions come out on time
    /// while no input arrives.
    /// Asked only of recognizers whose `decidesOnTime` is true (an override must say so there).
    open var nextDecisionTime: Double? { nil }

    /// Whether the recognizer is in the middle of something (tracking pointers, or a tap waiting
    /// for its next tap): what `require(toFail:)` waits on. A gesture already decided (failed or
    /// over, its remaining pointers ignored until they lift) is not: a swipe waiting for a hold
    /// that failed is decided at its first lift, not when the hold's last finger lifts.
    open var isInProgress: Bool { !pointers.isEmpty && !isIgnoringUntilLift }

    /// Drops every pointer and returns to possible without notifying (used when disabled).
    public func reset() {
        if hasDeferredMove { processDeferredMove() }
        isQuiet = false
        pointers.removeAll(keepingCapacity: true)
        appRejected.removeAll(keepingCapacity: true)
        pointerAddedInFrame = false
        lifted.removeAll(keepingCapacity: true)
        value.state = .possible
        value.pointers = 0
        peakPointers = 0
        isIgnoringUntilLift = false
        heldForRequirement.removeAll()
        didReset()
    }

    /// Subclasses clear their per-gesture state here (called by `reset()`).
    open func didReset() {}

    /// `write(state:)` with the reason the observer is told (make it only when `observer` is set:
    /// nobody else reads it). Kept apart from `write(state:)`, which every frame of a drag calls:
    /// that path passes no reason at all.
    public func write(state: GestureState, because reason: RecognizerReason?) {
        guard observer != nil else { return write(state: state) }
        pendingReason = reason
        write(state: state)
        pendingReason = nil
    }

    /// Writes a state and notifies every listener with the new snapshot. A final state reports
    /// the pointers the gesture had (`peakPointers`). While a failure requirement is still in
    /// progress, what would begin or recognize the gesture is held back (see `require(toFail:)`).
    public func write(state: GestureState) {
        isQuiet = false
        value.state = state
        let isFinal = state == .ended || state == .cancelled || state == .failed || state == .recognized
        value.pointers = isFinal ? max(peakPointers, pointers.count) : pointers.count
        if !failureRequirements.isEmpty {
            if !heldForRequirement.isEmpty {
                if state == .failed || state == .cancelled {
                    // It never started for the listeners: nothing to report but the failure.
                    heldForRequirement.removeAll()
                    value.state = .failed
                    if observer != nil { tell(.failed, pendingReason, at: value.t) }
                    listeners.forEach { $0.call(value) }
                    return
                }
                if state == .changed, let last = heldForRequirement.last, last.state == .began || last.state == .changed {
                    // Only the latest values matter: a held start stays a start, with them.
                    heldForRequirement[heldForRequirement.count - 1] = value
                    heldForRequirement[heldForRequirement.count - 1].state = last.state
                    return
                }
                heldForRequirement.append(value)
                return
            }
            if (state == .began || state == .recognized),
               let rival = failureRequirements.first(where: { $0.recognizer.isInProgress }) {
                heldForRequirement.append(value)
                if observer != nil { tell(.waiting, RecognizerReason(.waitingForRival, rival: rival.recognizer), at: value.t) }
                return
            }
        }
        if observer != nil, let event = RecognizerChange.Event(state) { tell(event, pendingReason, at: value.t) }
        if consumes, state == .began || state == .recognized { consumeBegan = true }
        if let only = listeners.only {
            only.call(value)
        } else {
            listeners.forEach { $0.call(value) }
        }
    }

    /// Waits for `other` to fail before this gesture begins or is recognized: while `other` is
    /// in progress, what this recognizer would report is held back; when `other` fails it is
    /// reported (stamped with that time), and when `other` begins or is recognized this gesture
    /// fails (or is cancelled) and its pointers are ignored until they lift.
    open func require(toFail other: GestureRecognizer) {
        // `other` holds this closure: it names itself unowned, or the two would keep each other.
        let listener = other.addListener { [unowned self, unowned other] otherValue in
            switch otherValue.state {
            case .failed:
                releaseHeld(at: otherValue.t, rival: other)
            case .began, .recognized:
                guard !heldForRequirement.isEmpty || !pointers.isEmpty || state.isActive else { return }
                value.t = otherValue.t
                abandon(because: observer == nil ? nil
                    : RecognizerReason(.rivalBegan, rival: other, detail: otherValue.state.rawValue))
            default:
                break
            }
        }
        failureRequirements.append((other, listener))
    }

    /// Reports what was held back for a failure requirement, stamped no earlier than `t`:
    /// `rival` failed (nil: the recognizers waited for stopped).
    private func releaseHeld(at t: Double, rival: GestureRecognizer?) {
        let held = heldForRequirement
        heldForRequirement.removeAll()
        for var pending in held {
            pending.t = max(pending.t, t)
            value = pending
            if observer != nil, let event = RecognizerChange.Event(pending.state) {
                tell(event, RecognizerReason(.rivalFailed, rival: rival, detail: rival == nil ? "stopped" : "failed"), at: pending.t)
            }
            if consumes, pending.state == .began || pending.state == .recognized { consumeBegan = true }
            listeners.forEach { $0.call(pending) }
        }
    }

    /// Tells the observer (callers check `observer != nil` first, so no reason is made for nobody).
    /// A `changed` is told once after `began`.
    @inline(never)
    func tell(_ event: RecognizerChange.Event, _ reason: RecognizerReason?, at t: Double) {
        guard let observer, event != .changed || lastTold != .changed else { return }
        lastTold = event
        observer.recognizer(self, changed: RecognizerChange(event, reason: reason, at: t))
    }

    /// A touch from a device `devices =` does not admit: told once per frame (the fingers of a
    /// touch often go down together), while the recognizer follows no touch.
    @inline(never)
    private func tellFiltered(_ device: PointerDevice?, at t: Double) {
        guard pointers.isEmpty, lastFilteredTell != t else { return }
        lastFilteredTell = t
        let seen = device.map { "\($0.kind) \"\($0.name)\"" }
        tell(.ignored, RecognizerReason(.deviceFiltered, detail: seen, expected: devices?.joined(separator: ",")), at: t)
    }

    /// A touch that began while `apps =` does not admit the focused app.
    @inline(never)
    private func tellAppRejected(at t: Double) {
        let app = focus.map { $0.isKnown ? $0.current?.id ?? "none (no window focused)" : "unknown (no focus provider)" }
        tell(.ignored, RecognizerReason(.appNotMatching, detail: app ?? "unknown (no focus provider)", expected: apps?.text), at: t)
    }

    deinit {
        for requirement in failureRequirements { requirement.recognizer.removeListener(requirement.listener) }
    }

    /// Calls `call` with the snapshot on every state write; returns the id that removes it.
    @discardableResult
    public func addListener(_ call: @escaping (GestureValue) -> Void) -> Int {
        listeners.add(Listener(call: call))
    }

    /// Removes a listener by the id `addListener` returned.
    public func removeListener(_ id: Int) {
        listeners.remove(id)
    }

    /// How many listeners are registered (gesture streams add one per subscription).
    public var listenerCount: Int { listeners.count }

    /// Centroid of the tracked pointers (screen space); `.zero` with none.
    public var centroid: Point {
        @inline(__always) get {
            let count = pointers.count
            // One pointer (the usual touch) without the loop: the same sum (from zero, so a
            // -0 stays as the loop made it) and no division by one.
            guard count > 1 else { return count == 0 ? .zero : Point.zero + pointers[0].position }
            var sum = Point.zero
            var i = 0
            while i < count {
                sum = sum + pointers[i].position
                i += 1
            }
            return sum / Double(count)
        }
    }

    /// Whether the set of tracked pointers changed in this frame (a re-base is due).
    public var pointerSetChanged: Bool {
        !lifted.isEmpty || pointerAddedInFrame
    }

    /// Mean movement in this frame of the pointers that were tracked before it, lifted ones
    /// included: what carries a value across a change of pointers without a jump.
    public var meanMovementOfPersistingPointers: Point {
        var sum = Point.zero
        var n = 0
        for pointer in pointers where pointer.existedBefore {
            sum = sum + (pointer.position - pointer.start)
            n += 1
        }
        for pointer in lifted where pointer.existedBefore && !wasCancelled {
            sum = sum + (pointer.position - pointer.start)
            n += 1
        }
        return n == 0 ? .zero : sum / Double(n)
    }

    /// Follows the centroid into `value.translation` for this frame: re-based on `reference` (the
    /// recognizer's anchor) when pointers came or went, so the translation never jumps. The first
    /// frame of a touch leaves it at zero.
    public func followTranslation(reference: inout Point, centroid: Point) {
        if pointerSetChanged {
            value.translation = value.translation + meanMovementOfPersistingPointers
            reference = centroid - value.translation
        } else {
            value.translation = centroid - reference
        }
    }

    @inline(__always)
    private func index(of id: Int) -> Int? {
        pointers.withUnsafeBufferPointer { tracked in
            for i in tracked.indices where tracked[i].id == id { return i }
            return nil
        }
    }
}
