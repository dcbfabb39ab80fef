/// The two channels an observer receives: values and activity states.
public struct MotionObserver<T> {
    public let next: (T) -> Void
    public let state: (MotionState) -> Void

    @inlinable
    public init(next: @escaping (T) -> Void, state: @escaping (MotionState) -> Void = { _ in }) {
        self.next = next
        self.state = state
    }
}
