extension MotionObservable where T == Double {
    /// Emits each value multiplied by `amount`.
    public func scaled(by amount: Double) -> MotionObservable<Double> { _map { $0 * amount } }
}

extension MotionObservable where T == Point {
    /// Emits each point with both components multiplied by `amount`.
    public func scaled(by amount: Double) -> MotionObservable<Point> { _map { $0 * amount } }
}
