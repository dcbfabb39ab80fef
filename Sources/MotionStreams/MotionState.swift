/// Whether a stream's producer is at rest or active (seed 003: `observer.state(.active)`).
public enum MotionState: Sendable, Equatable {
    case atRest
    case active
}
