extension MotionObservable where T == Point {
    /// Emits the y component of each point.
    public func y() -> MotionObservable<Double> { _map { $0.y } }
}
