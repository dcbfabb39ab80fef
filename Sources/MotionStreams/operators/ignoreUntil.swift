extension MotionObservable where T: Equatable {
    /// Emits nothing until a value equal to `expected` arrives; from then on (that value
    /// included) emits every value.
    public func ignoreUntil(_ expected: T) -> MotionObservable<T> {
        _nextOperator(perSubscription: {
            var reached = false
            return { value, next in
                if !reached && value == expected { reached = true }
                if reached { next(value) }
            }
        })
    }
}
