extension MotionObservable {
    /// Emits only the values for which `isIncluded` is true.
    @inlinable
    public func _filter(_ isIncluded: @escaping (T) -> Bool) -> MotionObservable<T> {
        _nextOperator { value, next in
            if isIncluded(value) { next(value) }
        }
    }
}
