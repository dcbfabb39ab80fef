extension MotionObservable where T: Hashable {
    /// Emits `map[value]` for each value; values without an entry emit nothing.
    public func rewrite<U>(_ map: [T: U]) -> MotionObservable<U> {
        _nextOperator { value, next in
            if let mapped = map[value] { next(mapped) }
        }
    }
}
