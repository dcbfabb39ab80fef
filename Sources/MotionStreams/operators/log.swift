extension MotionObservable {
    /// Passes values through unchanged, writing each one, prefixed, to `sink`.
    public func log(_ prefix: String = "", to sink: @escaping (String) -> Void) -> MotionObservable<T> {
        _nextOperator { value, next in
            sink(prefix.isEmpty ? "\(value)" : "\(prefix) \(value)")
            next(value)
        }
    }
}
