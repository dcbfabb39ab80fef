extension MotionObservable where T == Double {
    /// Emits each value plus `amount`.
    public func offset(by amount: Double) -> MotionObservable<Double> { _map { $0 + amount } }
}

extension MotionObservable where T == Point {
    /// Emits each point plus `amount`.
    public func offset(by amount: Point) -> MotionObservable<Point> { _map { $0 + amount } }
}
