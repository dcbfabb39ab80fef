extension MotionObservable where T == Double {
    /// Emits each value divided by `amount`.
    public func normalized(by amount: Double) -> MotionObservable<Double> { _map { $0 / amount } }
}

extension MotionObservable where T == Point {
    /// Emits each point divided component-wise by `amount` (x by amount.x, y by amount.y), e.g.
    /// a position normalized by an element's size.
    public func normalized(by amount: Point) -> MotionObservable<Point> {
        _map { Point(x: $0.x / amount.x, y: $0.y / amount.y) }
    }
}
