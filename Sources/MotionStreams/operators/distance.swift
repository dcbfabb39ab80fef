extension MotionObservable where T == Double {
    /// Emits the distance of each value from `location`: |value − location|.
    public func distance(from location: Double) -> MotionObservable<Double> {
        _map { abs($0 - location) }
    }

    /// Emits the distance of each value from the property's current value.
    public func distance(from location: ReactiveProperty<Double>) -> MotionObservable<Double> {
        _map { abs($0 - location.read()) }
    }

    /// Emits the distance of the latest value from `location`'s latest value, each time either
    /// changes once both have emitted (Material Motion's `distance(from:)`).
    public func distance(from location: MotionObservable<Double>) -> MotionObservable<Double> {
        _combineLatest(location) { value, origin, next in next(abs(value - origin)) }
    }
}

extension MotionObservable where T == Point {
    /// Emits the Euclidean distance of each point from `location`.
    public func distance(from location: Point) -> MotionObservable<Double> {
        _map { ($0 - location).length }
    }

    /// Emits the Euclidean distance of each point from the property's current value.
    public func distance(from location: ReactiveProperty<Point>) -> MotionObservable<Double> {
        _map { ($0 - location.read()).length }
    }

    /// Emits the Euclidean distance of the latest point from `location`'s latest value, each
    /// time either changes once both have emitted (Material Motion's `distance(from:)`).
    public func distance(from location: MotionObservable<Point>) -> MotionObservable<Double> {
        _combineLatest(location) { value, origin, next in next((value - origin).length) }
    }
}
