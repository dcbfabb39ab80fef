extension MotionObservable where T == Double {
    /// Emits the distance of each value from `location`: |value − location|.
    public func distance(from location: Double) -> MotionObservable<Double> {
        _map { abs($0 - location) }
    }
}

extension MotionObservable where T == Point {
    /// Emits the Euclidean distance of each point from `location`.
    public func distance(from location: Point) -> MotionObservable<Double> {
        _map { ($0 - location).length }
    }
}
