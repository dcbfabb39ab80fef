extension MotionObservable where T: Equatable {
    /// Emits a value only when it differs from the previous one (20,20,80,20 → 20,80,20).
    public func dedupe() -> MotionObservable<T> {
        _nextOperator(perSubscription: {
            var last: T?
            return { value, next in
                if let last, last == value { return }
                last = value
                next(value)
            }
        })
    }
}
