import MotionStreams

/// Recognizes drags: translation = centroid − reference centroid, recognized once the
/// translation's length exceeds `threshold` (strict). The threshold gates `began` only; the
/// value is measured from where the pointers went down. Adding or lifting pointers re-bases
/// the reference so the translation does not jump.
public final class TranslationGestureRecognizer: GestureRecognizer {
    public static let defaultThreshold = 10.0
    public static let defaultMinPointers = 1

    public let threshold: Double
    public let minPointers: Int
    public let maxPointers: Int
    private var reference = Point.zero
    private var tracker = VelocityTracker()

    public init(element: Element = .screen, threshold: Double = TranslationGestureRecognizer.defaultThreshold,
                minPointers: Int = TranslationGestureRecognizer.defaultMinPointers, maxPointers: Int = .max) {
        self.threshold = threshold
        self.minPointers = minPointers
        self.maxPointers = maxPointers
        super.init(kind: .translation, element: element)
    }

    public override var maximumPointers: Int { maxPointers }

    public override func process(t: Double) {
        let previous = value.translation
        if pointerSetChanged {
            value.translation = previous + meanMovementOfPersistingPointers
            reference = centroid - value.translation
        } else {
            value.translation = centroid - reference
        }
        if !pointers.isEmpty {
            value.centroid = centroid
        }
        if wasCancelled || pointers.isEmpty {
            if value.translation != previous { tracker.add(t: t, x: value.translation.x, y: value.translation.y) }
            value.velocity = tracker.velocity(at: t)
            let final: GestureState = wasCancelled ? (state.isActive ? .cancelled : .failed)
                                                   : (state.isActive ? .ended : .failed)
            write(state: final)
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
            if pointers.count >= minPointers && value.translation.length > threshold {
                write(state: .began)
            } else {
                value.pointers = pointers.count
            }
        }
    }
}
