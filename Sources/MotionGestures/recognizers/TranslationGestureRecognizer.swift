import MotionStreams

/// Recognizes drags: translation = centroid − reference centroid, recognized once the
/// translation's length exceeds `threshold` (strict). The threshold gates `began` only; the
/// value is measured from where the pointers went down. Adding or lifting pointers re-bases
/// the reference so the translation does not jump. While fewer than `minPointers` are down
/// (before `began`), movement does not count: the translation starts at zero when they are.
///
/// States: possible → began (first frame past the threshold with at least `minPointers`) →
/// changed… → ended (all pointers lifted) | cancelled (input cancel); possible → failed when
/// the pointers lift or are cancelled before the threshold was passed.
public final class TranslationGestureRecognizer: GestureRecognizer {
    /// Default `threshold`: 5 units of centroid movement (millimetres on a device that reports
    /// its resolution), strictly more begins: a 4 mm nudge is not a drag.
    public static let defaultThreshold = 5.0
    /// Default `minPointers`: one pointer is enough.
    public static let defaultMinPointers = 1
    /// Default `maxPointers`: no limit; pointers beyond `maxPointers` are not tracked.
    public static let defaultMaxPointers = Int.max

    /// Length the translation must exceed (strictly) to begin.
    public let threshold: Double
    /// Pointers needed before movement counts.
    public let minPointers: Int
    /// Pointers tracked at most; later ones are ignored.
    public let maxPointers: Int
    private var reference = Point.zero
    private var tracker = VelocityTracker()

    /// Throws `RecognizerOptionError` for a negative or non-finite `threshold`, `minPointers`
    /// below 1, or `maxPointers` below `minPointers`.
    public init(element: Element = .screen, threshold: Double = TranslationGestureRecognizer.defaultThreshold,
                minPointers: Int = TranslationGestureRecognizer.defaultMinPointers,
                maxPointers: Int = TranslationGestureRecognizer.defaultMaxPointers) throws {
        try RecognizerOptionError.check(threshold >= 0 && threshold.isFinite, "threshold", threshold, ">= 0 and finite")
        try RecognizerOptionError.check(minPointers >= 1, "minPointers", minPointers, ">= 1")
        try RecognizerOptionError.check(maxPointers >= minPointers, "maxPointers", maxPointers,
                                        ">= minPointers (\(minPointers))")
        self.threshold = threshold
        self.minPointers = minPointers
        self.maxPointers = maxPointers
        super.init(kind: .translation, element: element)
        keepsEarlierQuietMoves = true
    }

    public override var maximumPointers: Int { maxPointers }

    /// Before it begins with too few pointers (a two-finger pan under one finger), a move
    /// leaves the translation at zero, re-bases on the centroid and reads the velocity anew, and
    /// adds a zero velocity sample at its time: the samples of the frames put off are added
    /// before the last one is processed (`processEarlierQuietMoves`), as a start reads them.
    public override var movesAreQuiet: Bool {
        isIgnoringUntilLift || !state.isActive && !pointers.isEmpty && pointers.count < max(minPointers, fingers ?? 0)
    }

    override func processEarlierQuietMoves() {
        for t in earlierQuietMoves { tracker.add(t: t, x: 0, y: 0) }
    }

    public override func didReset() {
        value.translation = .zero
        value.velocity = .zero
        reference = .zero
        tracker.reset()
    }

    public override func process(t: Double) {
        let previous = value.translation
        let centroid = self.centroid
        followTranslation(reference: &reference, centroid: centroid)
        if !state.isActive && !pointers.isEmpty && pointers.count < max(minPointers, fingers ?? 0) {
            // Too few pointers to be this gesture yet: movement so far does not count.
            value.translation = .zero
            reference = centroid
        }
        if !pointers.isEmpty {
            value.centroid = centroid
        }
        if wasCancelled || pointers.isEmpty {
            if value.translation != previous { tracker.add(t: t, x: value.translation.x, y: value.translation.y) }
            value.velocity = tracker.velocity(at: t)
            let final: GestureState = wasCancelled ? (state.isActive ? .cancelled : .failed)
                                                   : (state.isActive ? .ended : .failed)
            write(state: final, because: observer == nil ? nil : endReason)
            value.translation = .zero
            value.velocity = .zero
            reference = .zero
            tracker.reset()
            return
        }
        tracker.add(t: t, x: value.translation.x, y: value.translation.y)
        value.velocity = tracker.velocity(at: t)
        switch state {
        case .began, .changed:
            write(state: .changed)
        default:
            if pointers.count >= minPointers && hasRequiredFingers && value.translation.length > threshold {
                write(state: .began, because: observer == nil ? nil
                    : RecognizerReason(.pastThreshold, value: value.translation.length, limit: threshold, unit: .units))
            } else {
                value.pointers = pointers.count
            }
        }
    }

    /// Why the drag ends or fails now.
    private var endReason: RecognizerReason {
        if wasCancelled { return RecognizerReason(.inputCancelled) }
        if state.isActive { return RecognizerReason(.lifted) }
        let needed = max(minPointers, fingers ?? 0)
        if peakPointers < needed {
            return RecognizerReason(.tooFewFingers, value: Double(peakPointers), limit: Double(needed), unit: .fingers)
        }
        return RecognizerReason(.belowThreshold, value: value.translation.length, limit: threshold, unit: .units)
    }
}
