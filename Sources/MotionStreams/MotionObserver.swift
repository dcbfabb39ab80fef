/// The two channels an observer receives: values and activity states.
public struct MotionObserver<T> {
    /// Receives each value.
    public let next: (T) -> Void
    /// Receives activity changes (`active`, `atRest`).
    public let state: (MotionState) -> Void

    /// An observer of both channels (states ignored by default).
    @inlinable
    public init(next: @escaping (T) -> Void, state: @escaping (MotionState) -> Void = { _ in }) {
        self.next = next
        self.state = state
    }
}
