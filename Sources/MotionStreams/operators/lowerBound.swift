extension MotionObservable where T: Comparable {
    /// Emits each value, raised to `minimum` when it is below it.
    public func lowerBound(_ minimum: T) -> MotionObservable<T> { _map { Swift.max($0, minimum) } }
}
