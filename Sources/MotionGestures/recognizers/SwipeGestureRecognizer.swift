import MotionStreams

/// Recognizes swipes, a discrete gesture: possible → recognized | failed, once per touch.
///
/// The swipe starts when its pointers are down (with `fingers = N`, when the N-th went down:
/// movement before does not count; without it, when a second went down, so one-finger pointer
/// motion on a touchpad never swipes) and is decided when the first of them lifts. Its
/// translation is the centroid's movement since the start, re-based like a drag's when pointers
/// are added, so it does not jump. At the decision:
/// - `value.distance` is the translation's length, `value.scalarVelocity` the mean speed
///   (distance / time from start to lift; 0 when both happen in one frame), `value.direction`
///   the translation's direction (`SwipeDirection.of`, with or without diagonals),
///   `value.translation` the translation itself;
/// - it is `recognized` when distance >= `minDistance`, speed >= `minVelocity`, the direction
///   is `direction` (when set) and the start point (the centroid at the start) is in `from`
///   (when set); it `fail`s otherwise, and on an input cancel.
/// The remaining pointers are then ignored until they all lifted.
public final class SwipeGestureRecognizer: GestureRecognizer {
    /// Default `minDistance`: 20 units (millimetres on a device that reports its resolution).
    public static let defaultMinDistance = 20.0
    /// Default `minVelocity`: none (0 units/s).
    public static let defaultMinVelocity = 0.0

    /// Screen units the swipe must travel (inclusive).
    public let minDistance: Double
    /// Mean speed the swipe must reach, units per second (inclusive).
    public let minVelocity: Double
    /// The only direction recognized; nil for any.
    public let direction: SwipeDirection?
    /// Whether directions include the four diagonals.
    public let diagonals: Bool
    /// Where the swipe must start; nil for anywhere in the element.
    public let zone: SwipeZone?

    private var startTime: Double?
    private var startPoint = Point.zero
    private var reference = Point.zero

    /// Throws `RecognizerOptionError` for a negative or non-finite `minDistance` or `minVelocity`.
    public init(element: Element = .screen, fingers: Int? = nil,
                minDistance: Double = SwipeGestureRecognizer.defaultMinDistance,
                minVelocity: Double = SwipeGestureRecognizer.defaultMinVelocity,
                direction: SwipeDirection? = nil, diagonals: Bool = false, from zone: SwipeZone? = nil) throws {
        try RecognizerOptionError.check(minDistance >= 0 && minDistance.isFinite, "minDistance", minDistance, ">= 0 and finite")
        try RecognizerOptionError.check(minVelocity >= 0 && minVelocity.isFinite, "minVelocity", minVelocity, ">= 0 and finite")
        if let fingers { try RecognizerOptionError.check(fingers >= 1, "fingers", fingers, ">= 1") }
        self.minDistance = minDistance
        self.minVelocity = minVelocity
        self.direction = direction
        self.diagonals = diagonals || (direction?.isDiagonal ?? false)
        self.zone = zone
        super.init(kind: .swipe, element: element)
        self.fingers = fingers
    }

    /// Without `fingers`, two or more: one finger on a touchpad is the pointer.
    public override var minimumFingers: Int { 2 }

    /// Before its fingers are down a move only moves the centroid (`process(t:)` sets nothing
    /// else); once started, only the translation (from a reference set at the start). Ignored
    /// pointers are not processed.
    public override var movesAreQuiet: Bool {
        isIgnoringUntilLift || state == .possible && (startTime != nil || !hasRequiredFingers)
    }

    /// A swipe decides at its first lift, but a consumer need not hold the touch that long once
    /// it cannot go its way: started outside its `from` zone, or gone a quarter of `minDistance`
    /// another way than `direction` (a 2-finger scroll under a 2-finger horizontal swipe is
    /// passed after those few millimetres). It may still be recognized at the lift: the touch
    /// is then consumed from there on.
    public override var claimOfTouch: ConsumeClaim {
        let claim = super.claimOfTouch
        guard claim == .matching, startTime != nil else { return claim }
        if let zone, !zone.contains(startPoint, bounds: element) { return .none }
        if let direction {
            let moved = value.translation
            if moved.length >= minDistance / 4, SwipeDirection.of(moved, diagonals: diagonals) != direction { return .none }
        }
        return claim
    }

    public override func didReset() {
        startTime = nil
        value.translation = .zero
        value.distance = 0
        value.scalarVelocity = 0
        value.direction = nil
    }

    public override func process(t: Double) {
        if wasCancelled {
            finish(.failed, observer == nil ? nil : RecognizerReason(.inputCancelled))
            return
        }
        if !lifted.isEmpty {
            // The first lift decides: carry this frame's movement of the pointers it had.
            if startTime != nil { value.translation = value.translation + meanMovementOfPersistingPointers }
            decide(t: t)
            return
        }
        // Once per frame (a walk over the pointers), read below.
        let centroid = self.centroid
        value.centroid = centroid
        guard hasRequiredFingers else {
            startTime = nil  // not all fingers down yet: the swipe has not started
            return
        }
        if startTime == nil || pointerSetChanged && startTime == t {
            startTime = t
            startPoint = centroid
            value.translation = .zero
            reference = centroid
        } else if pointerSetChanged {
            value.translation = value.translation + meanMovementOfPersistingPointers
            reference = centroid - value.translation
        } else {
            value.translation = centroid - reference
        }
        value.pointers = pointers.count
    }

    private func decide(t: Double) {
        guard let startTime, fingers.map({ peakPointers == $0 }) ?? true else {
            return finish(.failed, observer == nil ? nil
                : RecognizerReason(.tooFewFingers, value: Double(peakPointers), limit: Double(fingers ?? minimumFingers), unit: .fingers))
        }
        let distance = value.translation.length
        let duration = t - startTime
        value.distance = distance
        value.scalarVelocity = duration > 0 ? distance / duration : 0
        value.direction = SwipeDirection.of(value.translation, diagonals: diagonals)
        let matches = distance >= minDistance && value.scalarVelocity >= minVelocity
            && (direction == nil || value.direction == direction)
            && (zone?.contains(startPoint, bounds: element) ?? true)
        finish(matches ? .recognized : .failed, observer == nil ? nil : reason(startingAt: startPoint))
    }

    /// The first test the decided swipe failed, in the order a person checks them (enough fingers,
    /// far enough, fast enough, the right way, from the right place), or what it matched with.
    private func reason(startingAt start: Point) -> RecognizerReason {
        if value.distance < minDistance {
            return RecognizerReason(.tooShort, value: value.distance, limit: minDistance, unit: .units)
        }
        if value.scalarVelocity < minVelocity {
            return RecognizerReason(.tooSlow, value: value.scalarVelocity, limit: minVelocity, unit: .unitsPerSecond)
        }
        if let direction, value.direction != direction {
            return RecognizerReason(.wrongDirection, detail: value.direction?.rawValue, expected: direction.rawValue)
        }
        if let zone, !zone.contains(start, bounds: element) {
            switch zone {
            case .edge(let edge, let depth):
                return RecognizerReason(.outsideZone, value: zone.distanceFromEdge(start, bounds: element), limit: depth,
                                        unit: .units, expected: "from=\(edge.rawValue)")
            case .element:
                return RecognizerReason(.outsideZone, expected: "its from element")
            }
        }
        return RecognizerReason(.matched, value: value.distance, limit: minDistance, unit: .units,
                                detail: value.direction?.rawValue)
    }

    private func finish(_ state: GestureState, _ reason: RecognizerReason?) {
        write(state: state, because: reason)
        startTime = nil
        if !pointers.isEmpty { isIgnoringUntilLift = true }
    }
}
