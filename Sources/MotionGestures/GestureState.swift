import MotionStreams

/// The recognizer state machine. Continuous gestures go possible → began → changed… →
/// ended | cancelled, or possible → failed; discrete ones (tap) possible → recognized | failed.
/// After a final state the recognizer returns to possible.
public enum GestureState: String, Sendable, Equatable, CaseIterable {
    case possible, began, changed, ended, cancelled, failed, recognized

    /// began and changed: a gesture in progress.
    @inlinable
    public var isActive: Bool {
        switch self {
        case .began, .changed: return true
        default: return false
        }
    }

    /// The stream state a gesture source reports for it (recognized is an instant of activity).
    @inlinable
    public var motionState: MotionState { isActive ? .active : .atRest }
}

/// Which recognizer produced a gesture value.
public enum GestureKind: String, Sendable, Equatable {
    case tap, translation, rotation, scale, swipe, hold
}
