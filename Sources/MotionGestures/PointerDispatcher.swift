import MotionStreams

/// Hands each input frame to every recognizer (in creation order) and to raw pointer
/// listeners, and keeps the input clock.
///
/// Time: the dispatcher is the host's one place to move input time forward. `dispatch(_:)`
/// first advances to the frame's time — every recognizer's time-based decisions (a tap whose
/// interval ran out), then the actions scheduled on `clock` (delays) — and then hands the frame
/// out. At the end of input the host calls `finish()`, which decides whatever is still waiting
/// (stamped with the time it fell due) and runs everything still scheduled on `clock`.
public final class PointerDispatcher {
    /// Input time of the last frame dispatched (or advanced to).
    public var time: Double { currentTime }
    @usableFromInline var currentTime: Double = 0
    /// The recognizers frames go to, in creation order.
    public private(set) var recognizers: [GestureRecognizer] = []
    /// The same recognizers, held by `recognizers` (`Unretained`'s owner): frames reach them
    /// without a retain and a release of each. Recognizers are only ever added, so walking this by index up
    /// to the count at the start of a walk sees exactly the recognizers there were then, even if
    /// one is added meanwhile (a script making a recognizer from a callback).
    @usableFromInline var reached: [Unretained<GestureRecognizer>] = []
    /// Those of `reached` that decide on time alone (taps, holds): the only ones `advance(to:)`
    /// has anything to do for and the only ones with a `nextDecisionTime`, walked the same way.
    @usableFromInline var timed: [Unretained<GestureRecognizer>] = []
    /// The input clock that time-based operators and sources schedule on.
    public let clock: InputClock
    @usableFromInline var pointerListeners = ListenerList<(PointerEvent) -> Void>()
    /// The focused application, shared by every recognizer added (their `apps =`); frames
    /// carrying a focus change set it.
    public let focus = AppFocus()

    /// Told of every recognizer's state changes with their reasons (`GestureRecognizer.observer`),
    /// those added later included; nil (the usual case) costs the recognizers nothing.
    public var recognizerObserver: RecognizerObserver? {
        didSet { for recognizer in recognizers { recognizer.observer = recognizerObserver } }
    }

    /// A dispatcher driving `clock`.
    public init(clock: InputClock = InputClock()) {
        self.clock = clock
    }

    /// Adds a recognizer: it sees every later frame.
    public func add(_ recognizer: GestureRecognizer) {
        recognizers.append(recognizer)
        reached.append(Unretained(recognizer))
        if recognizer.advancesWithTime { timed.append(Unretained(recognizer)) }
        recognizer.focus = focus
        recognizer.serial = recognizers.count
        if let recognizerObserver { recognizer.observer = recognizerObserver }
    }

    /// Advances time to the frame's and hands it to every recognizer, then to pointer listeners.
    /// Inlinable: the runtime's `handle`, and the host's per-frame call with it, take it in
    /// (what is rare — a focus change, pointer listeners — is a call).
    @inlinable @inline(__always)
    public func dispatch(_ frame: Frame) {
        advanceTime(to: frame.t)
        if frame.focus != nil { applyFocus(of: frame) }
        let count = reached.count
        var i = 0
        while i < count {
            reached[i].with { $0.handle(frame) }
            i += 1
        }
        if !pointerListeners.isEmpty { tellPointerListeners(frame.events) }
    }

    @usableFromInline
    func applyFocus(of frame: Frame) {
        if let change = frame.focus { focus.set(change.app) }
    }

    @usableFromInline
    func tellPointerListeners(_ events: [PointerEvent]) {
        // By index, and the one listener (the usual case) called without a snapshot of the
        // list, asked again for each event (a listener may remove itself).
        for k in events.indices {
            if let only = pointerListeners.only {
                only(events[k])
            } else {
                pointerListeners.forEach { $0(events[k]) }
            }
        }
    }

    /// Moves input time to `t` without input: recognizers make the decisions due by then, in
    /// creation order, then `clock` runs the actions due by then.
    public func advance(to t: Double) {
        advanceTime(to: t)
    }

    /// `advance(to:)`, inlined into `dispatch` (each plugin dispatches every frame).
    @inlinable @inline(__always)
    func advanceTime(to t: Double) {
        if t.isFinite && t > currentTime { currentTime = t }
        let count = timed.count
        var i = 0
        while i < count {
            // A quiet recognizer decides nothing on time (`GestureRecognizer.movesAreQuiet`).
            timed[i].with { if !$0.isQuiet { $0.advance(to: t) } }
            i += 1
        }
        clock.advance(to: t)
    }

    /// The earliest input time at which something falls due without input: a recognizer's
    /// time-based decision or an action scheduled on `clock` (nil: nothing is waiting).
    /// Asked before every wait of live input: only the recognizers that decide on time are
    /// asked, without a retain of each (the same walk as `advanceTime`); with none (most
    /// scripts), the clock's answer where it is asked.
    @inlinable
    public var nextDueTime: Double? {
        @inline(__always) get {
            // A quiet recognizer has nothing waiting on time (`GestureRecognizer.movesAreQuiet`):
            // the one timed recognizer of most scripts that have one is looked at here.
            timed.isEmpty || timed.count == 1 && timed[0].with({ $0.isQuiet })
                ? clock.nextTime : nextDueTimeAskingTimed()
        }
    }

    @usableFromInline
    func nextDueTimeAskingTimed() -> Double? {
        var due = clock.nextTime
        let count = timed.count
        var i = 0
        while i < count {
            if let t = timed[i].with({ $0.isQuiet ? nil : $0.nextDecisionTime }), t < (due ?? .infinity) { due = t }
            i += 1
        }
        return due
    }

    /// The end of input: `advance(to: .infinity)`. `time` stays at the last finite time.
    public func finish() {
        advance(to: .infinity)
    }

    /// Calls `call` with every pointer change, in input order; returns the id that removes it.
    @discardableResult
    public func addPointerListener(_ call: @escaping (PointerEvent) -> Void) -> Int {
        pointerListeners.add(call)
    }

    /// Removes a pointer listener by the id `addPointerListener` returned.
    public func removePointerListener(_ id: Int) {
        pointerListeners.remove(id)
    }
}
