import MotionStreams

/// Recognizes taps, a discrete gesture: possible → recognized | failed.
///
/// A tap starts when a pointer goes down in the element and completes when every pointer of it
/// has lifted. It counts if it completed within `maxDuration` of its first pointer going down
/// and no pointer of it moved more than `maxMovement` screen units from where it went down
/// (both bounds inclusive). With `taps = n` the recognizer waits for n such taps, each starting
/// within `interval` of the previous tap's last lift (inclusive), and is `recognized` at the
/// lift of the n-th; `value.taps` is n and `value.centroid` where the last tap's pointers lifted.
/// It `fail`s as soon as a tap cannot count any more (moved too far, held too long, input
/// cancel) or the next tap did not start in time; pointers still down are then ignored until
/// they all lift.
///
/// Input time: "held too long" and "did not start in time" fall due with time alone. They are
/// decided when the next frame arrives (any frame, handled by any recognizer through the
/// dispatcher) or when the host calls `advance(to:)` / `PointerDispatcher.finish()` at the end of
/// input, and are stamped with the time they fell due (down + maxDuration, lift + interval).
///
/// Single and double taps on the same element: without a relation both recognize independently
/// (a double tap also gives the single-tap recognizer two taps). `single.require(toFail: double)`
/// makes the single tap wait: when its tap completes while `double` is in progress, it is
/// recognized only when `double` fails (stamped with that time), and fails if `double` is
/// recognized. Taps that start while it waits are not counted.
public final class TapGestureRecognizer: GestureRecognizer {
    /// Default `taps`: a single tap.
    public static let defaultTaps = 1
    /// Default `maxDuration`: 0.3 s from the first pointer down to the last lift of a tap.
    public static let defaultMaxDuration = 0.3
    /// Default `maxMovement`: 3 units (millimetres on a device that reports its resolution) from
    /// where each pointer went down: a 6 mm two-finger scroll is not a tap.
    public static let defaultMaxMovement = 3.0
    /// Default `interval`: the next tap must start within 0.3 s of the previous tap's lift.
    public static let defaultInterval = 0.3

    /// Tolerance on time comparisons, so that decimal timestamps (0.1 + 0.3) compare as written.
    static let timeTolerance = 1e-9

    /// How many taps make a recognition.
    public let taps: Int
    /// Seconds each tap may last, down to lift (inclusive).
    public let maxDuration: Double
    /// Screen units each pointer may move from where it went down (inclusive).
    public let maxMovement: Double
    /// Seconds from a tap's lift within which the next tap must start.
    public let interval: Double

    private var tapsCounted = 0
    private var tapStart: Double?
    private var lastLift: Double?
    private var liftedSum = Point.zero
    private var liftedCount = 0
    private var ignoringUntilLift = false
    private var waiting: GestureValue?
    private var requirements: [(recognizer: GestureRecognizer, listener: Int)] = []

    /// Throws `RecognizerOptionError` for `taps` below 1, a `maxDuration` that is not positive,
    /// or a negative `maxMovement` or `interval`.
    public init(element: Element = .screen, taps: Int = TapGestureRecognizer.defaultTaps,
                maxDuration: Double = TapGestureRecognizer.defaultMaxDuration,
                maxMovement: Double = TapGestureRecognizer.defaultMaxMovement,
                interval: Double = TapGestureRecognizer.defaultInterval) throws {
        try RecognizerOptionError.check(taps >= 1, "taps", taps, ">= 1")
        try RecognizerOptionError.check(maxDuration > 0 && !maxDuration.isNaN, "maxDuration", maxDuration, "> 0")
        try RecognizerOptionError.check(maxMovement >= 0 && !maxMovement.isNaN, "maxMovement", maxMovement, ">= 0")
        try RecognizerOptionError.check(interval >= 0 && !interval.isNaN, "interval", interval, ">= 0")
        self.taps = taps
        self.maxDuration = maxDuration
        self.maxMovement = maxMovement
        self.interval = interval
        super.init(kind: .tap, element: element)
    }

    deinit {
        for requirement in requirements { requirement.recognizer.removeListener(requirement.listener) }
    }

    /// Waits for `other` to fail before recognizing (see the type's documentation).
    public override func require(toFail other: GestureRecognizer) {
        // `other` holds this closure: it names itself unowned, or the two would keep each other.
        let listener = other.addListener { [unowned self, unowned other] otherValue in
            guard let pending = waiting else { return }
            switch otherValue.state {
            case .failed:
                waiting = nil
                value = pending
                value.t = otherValue.t
                write(state: .recognized, because: observer == nil ? nil : RecognizerReason(.rivalFailed, rival: other, detail: "failed"))
                if !pointers.isEmpty { ignoringUntilLift = true }
            case .began, .recognized, .ended:
                waiting = nil
                value.t = otherValue.t
                write(state: .failed, because: observer == nil ? nil
                    : RecognizerReason(.rivalBegan, rival: other, detail: otherValue.state.rawValue))
                if !pointers.isEmpty { ignoringUntilLift = true }
            default:
                break
            }
        }
        requirements.append((other, listener))
    }

    public override var decidesOnTime: Bool { true }

    /// A tap that failed (its pointers ignored until they lift) and waits for nothing: moves
    /// change nothing and nothing waits on time (`advance(to:)` returns at once).
    public override var movesAreQuiet: Bool {
        waiting == nil && (ignoringUntilLift || isIgnoringUntilLift && tapStart == nil && tapsCounted == 0)
    }

    /// A multi-tap between its taps (or held for its rival) can still take the touches so far.
    public override var claimOfTouch: ConsumeClaim {
        if ignoringUntilLift { return .none }
        if waiting != nil || pointers.isEmpty && tapsCounted > 0 { return .matching }
        return super.claimOfTouch
    }

    public override var isInProgress: Bool {
        (!pointers.isEmpty && !ignoringUntilLift) || tapsCounted > 0 || waiting != nil
    }

    public override func advance(to t: Double) {
        // Nothing waits on time (no tap under way, or its pointers ignored): the usual frame,
        // answered without `decide(at:)`'s set-up (it holds a snapshot's worth of stack).
        if waiting == nil && (ignoringUntilLift || tapStart == nil && tapsCounted == 0) { return }
        decide(at: t)
    }

    /// `advance(to:)` when a tap or a sequence is under way, or one waits for its rival.
    @inline(never)
    private func decide(at t: Double) {
        // `waiting` is tested before it is read: binding it would copy the snapshot every frame.
        if waiting != nil, !requirements.contains(where: { $0.recognizer.isInProgress }), let pending = waiting {
            // A requirement that stopped without failing or recognizing (it was disabled): the
            // waiting tap no longer has anything to wait for.
            waiting = nil
            value = pending
            write(state: .recognized, because: observer == nil ? nil : RecognizerReason(.rivalFailed, detail: "stopped"))
        }
        guard !ignoringUntilLift, waiting == nil else { return }
        if let tapStart, t > tapStart + maxDuration + Self.timeTolerance {
            fail(at: tapStart + maxDuration, observer == nil ? nil : RecognizerReason(.heldTooLong, limit: maxDuration, unit: .s))
        } else if tapStart == nil, tapsCounted > 0, let lastLift, t > lastLift + interval + Self.timeTolerance {
            fail(at: lastLift + interval, observer == nil ? nil
                : RecognizerReason(.timedOut, limit: interval, unit: .s, detail: "tap \(tapsCounted + 1) of \(taps)"))
        }
    }

    public override var nextDecisionTime: Double? {
        guard !ignoringUntilLift, waiting == nil else { return nil }
        // `advance(to:)` decides strictly after the tolerance: the next representable time past it.
        if let tapStart { return (tapStart + maxDuration + Self.timeTolerance).nextUp }
        if tapsCounted > 0, let lastLift { return (lastLift + interval + Self.timeTolerance).nextUp }
        return nil
    }

    public override func process(t: Double) {
        if waiting != nil || ignoringUntilLift {
            // Pointers of a failed tap, or taps while waiting on another recognizer.
            if pointers.isEmpty { ignoringUntilLift = false }
            if waiting != nil && !pointers.isEmpty { ignoringUntilLift = true }
            return
        }
        if wasCancelled {
            fail(at: t, observer == nil ? nil : RecognizerReason(.inputCancelled))
            ignoringUntilLift = false
            return
        }
        if tapStart == nil {
            tapStart = t  // advance(to:) already failed a sequence whose interval ran out
            liftedSum = .zero
            liftedCount = 0
        }
        if pointers.contains(where: movedTooFar) || lifted.contains(where: movedTooFar) {
            fail(at: t, observer == nil ? nil : movedReason)
            return
        }
        for pointer in lifted {
            liftedSum = liftedSum + pointer.position
            liftedCount += 1
        }
        if !pointers.isEmpty {
            value.centroid = centroid
            value.pointers = pointers.count
            return
        }
        // Every pointer of the tap lifted (within maxDuration: advance(to:) fails it otherwise).
        if let fingers, peakPointers != fingers {
            // A 1-finger tap is not a 2-finger tap (more fingers failed it earlier).
            fail(at: t, observer == nil ? nil
                : RecognizerReason(.tooFewFingers, value: Double(peakPointers), limit: Double(fingers), unit: .fingers))
            return
        }
        tapsCounted += 1
        tapStart = nil
        lastLift = t
        value.centroid = liftedSum / Double(max(liftedCount, 1))
        value.taps = tapsCounted
        if tapsCounted == taps {
            tapsCounted = 0
            lastLift = nil
            if let rival = requirements.first(where: { $0.recognizer.isInProgress }) {
                waiting = value
                if observer != nil { tell(.waiting, RecognizerReason(.waitingForRival, rival: rival.recognizer), at: t) }
            } else {
                write(state: .recognized, because: observer == nil ? nil
                    : RecognizerReason(.matched, detail: taps == 1 ? "1 tap" : "\(taps) taps"))
            }
        }
    }

    public override func didReset() {
        clearSequence()
        waiting = nil
        ignoringUntilLift = false
    }

    private func movedTooFar(_ pointer: TrackedPointer) -> Bool {
        (pointer.position - pointer.downPosition).length > maxMovement
    }

    /// The farthest a pointer of the tap moved from where it went down, against `maxMovement`.
    private var movedReason: RecognizerReason {
        let farthest = (pointers + lifted).map { ($0.position - $0.downPosition).length }.max() ?? 0
        return RecognizerReason(.moved, value: farthest, limit: maxMovement, unit: .units)
    }

    private func fail(at t: Double, _ reason: RecognizerReason?) {
        value.t = t
        value.taps = tapsCounted
        clearSequence()
        write(state: .failed, because: reason)
        if !pointers.isEmpty { ignoringUntilLift = true }
    }

    private func clearSequence() {
        tapsCounted = 0
        tapStart = nil
        lastLift = nil
        liftedSum = .zero
        liftedCount = 0
    }
}
