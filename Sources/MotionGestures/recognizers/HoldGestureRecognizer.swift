import MotionStreams

/// Recognizes a hold (long press): pointers that stay down, within `maxMovement` of where they
/// went down, for `duration` seconds of input time. With `fingers = N` the time counts from the
/// N-th pointer down; without it, from the second (a one-finger hold says `fingers = 1`).
///
/// States: possible → began when the duration has passed (stamped with start + duration, the
/// time it fell due, even when the next frame comes later: the decision falls due with time
/// alone, like a tap's interval) → changed on movement → ended when a pointer lifts |
/// cancelled on an input cancel; possible → failed when a pointer moves too far or lifts
/// before the duration. After the end, pointers still down are ignored until they all lifted.
public final class HoldGestureRecognizer: GestureRecognizer {
    /// Default `duration`: 0.5 s.
    public static let defaultDuration = 0.5
    /// Default `maxMovement`: 3 units (millimetres on a device that reports its resolution) from
    /// where each pointer went down.
    public static let defaultMaxMovement = 3.0

    /// Seconds of input time the pointers must stay down.
    public let duration: Double
    /// Screen units a pointer may move from where it went down before the hold began.
    public let maxMovement: Double
    private var startTime: Double?
    private var reference = Point.zero

    /// Throws `RecognizerOptionError` for a `duration` that is not positive and finite, or a
    /// negative `maxMovement`.
    public init(element: Element = .screen, fingers: Int? = nil,
                duration: Double = HoldGestureRecognizer.defaultDuration,
                maxMovement: Double = HoldGestureRecognizer.defaultMaxMovement) throws {
        try RecognizerOptionError.check(duration > 0 && duration.isFinite, "duration", duration, "> 0 and finite")
        try RecognizerOptionError.check(maxMovement >= 0 && !maxMovement.isNaN, "maxMovement", maxMovement, ">= 0")
        if let fingers { try RecognizerOptionError.check(fingers >= 1, "fingers", fingers, ">= 1") }
        self.duration = duration
        self.maxMovement = maxMovement
        super.init(kind: .hold, element: element)
        self.fingers = fingers
    }

    public override var decidesOnTime: Bool { true }

    /// Ignoring its pointers until they lift (a hold that ended or failed): moves are not
    /// processed and nothing waits on time.
    public override var movesAreQuiet: Bool { isIgnoringUntilLift }

    /// Without `fingers`, two or more: one finger resting on a touchpad is the pointer, not a hold.
    public override var minimumFingers: Int { 2 }

    public override func didReset() {
        startTime = nil
        value.translation = .zero
    }

    public override func advance(to t: Double) {
        guard let startTime, !state.isActive, !isIgnoringUntilLift,
              t >= startTime + duration - TapGestureRecognizer.timeTolerance else { return }
        value.t = startTime + duration
        value.centroid = centroid
        write(state: .began, because: observer == nil ? nil : RecognizerReason(.heldLongEnough, limit: duration, unit: .s))
    }

    public override var nextDecisionTime: Double? {
        guard let startTime, !state.isActive, !isIgnoringUntilLift else { return nil }
        return startTime + duration
    }

    public override func process(t: Double) {
        if wasCancelled {
            finish(state.isActive ? .cancelled : .failed, observer == nil ? nil : RecognizerReason(.inputCancelled))
            return
        }
        // g:translation(): hold-then-drag needs no second recognizer.
        let centroid = self.centroid
        followTranslation(reference: &reference, centroid: centroid)
        if !lifted.isEmpty {
            finish(state.isActive ? .ended : .failed, observer == nil ? nil : liftReason(at: t))
            return
        }
        if !state.isActive && pointers.contains(where: { ($0.position - $0.downPosition).length > maxMovement }) {
            finish(.failed, observer == nil ? nil : movedReason)
            return
        }
        value.centroid = centroid
        if state.isActive {
            write(state: .changed)
        } else if hasRequiredFingers {
            if startTime == nil || pointerSetChanged { startTime = t }
            value.pointers = pointers.count
        } else {
            startTime = nil
            value.pointers = pointers.count
        }
    }

    /// Why a lift ends or fails the hold.
    private func liftReason(at t: Double) -> RecognizerReason {
        if state.isActive { return RecognizerReason(.lifted) }
        guard let startTime else {
            return RecognizerReason(.tooFewFingers, value: Double(peakPointers), limit: Double(fingers ?? minimumFingers), unit: .fingers)
        }
        return RecognizerReason(.liftedEarly, value: t - startTime, limit: duration, unit: .s)
    }

    /// The farthest a pointer moved from where it went down, against `maxMovement`.
    private var movedReason: RecognizerReason {
        let farthest = pointers.map { ($0.position - $0.downPosition).length }.max() ?? 0
        return RecognizerReason(.moved, value: farthest, limit: maxMovement, unit: .units)
    }

    private func finish(_ state: GestureState, _ reason: RecognizerReason?) {
        write(state: state, because: reason)
        startTime = nil
        value.translation = .zero
        if !pointers.isEmpty { isIgnoringUntilLift = true }
    }
}
