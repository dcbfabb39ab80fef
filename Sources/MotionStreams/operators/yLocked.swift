extension MotionObservable where T == Point {
    /// Emits each point with its y replaced by `y`.
    public func yLocked(to y: Double) -> MotionObservable<Point> { _map { Point(x: $0.x, y: y) } }
}
