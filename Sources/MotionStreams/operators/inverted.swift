extension MotionObservable where T == Bool {
    /// Emits the negation of each value.
    public func inverted() -> MotionObservable<Bool> { _map { !$0 } }
}
