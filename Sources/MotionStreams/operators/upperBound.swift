extension MotionObservable where T: Comparable {
    /// Emits each value, lowered to `maximum` when it is above it.
    public func upperBound(_ maximum: T) -> MotionObservable<T> { _map { Swift.min($0, maximum) } }
}
