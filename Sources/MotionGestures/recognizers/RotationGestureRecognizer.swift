import Foundation
import MotionStreams

/// Recognizes two-finger rotation (seed 002): `value.rotation` is the signed angle in radians
/// from the reference vector (first pointer → second, when the second went down) to the current
/// one; y points down, so clockwise on screen is positive. The angle is unwrapped: it follows
/// the fingers continuously past ±π, and a full turn reads 2π. `value.scalarVelocity` is in
/// radians per second. Pointers, re-basing and states: see `PairGestureRecognizer`.
public final class RotationGestureRecognizer: PairGestureRecognizer {
    /// Default `threshold`: π/36 rad (5°) of rotation, strictly exceeded, before `began`.
    public static let defaultThreshold = Double.pi / 36

    private var referenceAngle = 0.0
    private var unwrappedAngle = 0.0

    /// Throws `RecognizerOptionError` for a negative or non-finite `threshold` (radians).
    public init(element: Element = .screen, threshold: Double = RotationGestureRecognizer.defaultThreshold) throws {
        try super.init(kind: .rotation, element: element, threshold: threshold)
    }

    override var measure: Double { value.rotation }

    override func resetMeasure() {
        value.rotation = 0
        referenceAngle = 0
        unwrappedAngle = 0
    }

    override func rebase(on vector: Point) {
        unwrappedAngle = atan2(vector.y, vector.x)
        referenceAngle = unwrappedAngle - value.rotation
    }

    override func update(with vector: Point) {
        // The smallest turn from the last angle: frames are far closer than half a turn apart.
        unwrappedAngle += remainder(atan2(vector.y, vector.x) - unwrappedAngle, 2 * Double.pi)
        value.rotation = unwrappedAngle - referenceAngle
    }

    override var isPastThreshold: Bool { abs(value.rotation) > threshold }
    override var excursion: Double { abs(value.rotation) }
    override var thresholdUnit: RecognizerReason.Unit { .rad }
}
