import MotionStreams

/// Recognizes pinches (seed 004): `value.scale` is the length of the current vector (first
/// pointer → second) relative to the reference vector's, 1 when idle. Re-basing is
/// multiplicative: a new pair continues from the current scale. `value.scalarVelocity` is the
/// scale's rate of change per second. Pointers, re-basing and states: see
/// `PairGestureRecognizer`. Two pointers at the same spot have no reference length: the scale
/// stays put until they separate.
public final class ScaleGestureRecognizer: PairGestureRecognizer {
    /// Default `threshold`: 0.05, i.e. |scale − 1| must exceed 5 % before `began`.
    public static let defaultThreshold = 0.05

    private var referenceLength = 0.0

    /// Throws `RecognizerOptionError` for a negative or non-finite `threshold` (relative).
    public init(element: Element = .screen, threshold: Double = ScaleGestureRecognizer.defaultThreshold) throws {
        try super.init(kind: .scale, element: element, threshold: threshold)
    }

    override var measure: Double { value.scale }

    override func resetMeasure() {
        value.scale = 1
        referenceLength = 0
    }

    override func rebase(on vector: Point) {
        referenceLength = value.scale > 0 ? vector.length / value.scale : 0
    }

    override func update(with vector: Point) {
        let length = vector.length
        if referenceLength > 0 {
            value.scale = length / referenceLength
        } else if length > 0 {
            if value.scale <= 0 { value.scale = 1 }
            referenceLength = length / value.scale
        }
    }

    override var isPastThreshold: Bool { abs(value.scale - 1) > threshold }
    override var excursion: Double { abs(value.scale - 1) }
}
