extension MotionObservable {
    /// Emits `value` each time the upstream emits anything.
    public func rewriteTo<U>(_ value: U) -> MotionObservable<U> { _map { _ in value } }
}
