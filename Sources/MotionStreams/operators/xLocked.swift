extension MotionObservable where T == Point {
    /// Emits each point with its x replaced by `x`.
    public func xLocked(to x: Double) -> MotionObservable<Point> { _map { Point(x: x, y: $0.y) } }
}
