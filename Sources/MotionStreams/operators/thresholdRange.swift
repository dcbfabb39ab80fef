extension MotionObservable where T: Comparable {
    /// Emits `below` (< min), `within` (min ≤ value ≤ max, inclusive) or `above` (> max).
    public func thresholdRange(min: T, max: T) -> MotionObservable<ThresholdEvent> {
        _map { $0 < min ? .below : ($0 > max ? .above : .within) }
    }
}
