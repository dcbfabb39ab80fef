extension MotionObservable where T == Point {
    /// Emits the x component of each point.
    public func x() -> MotionObservable<Double> { _map { $0.x } }
}
