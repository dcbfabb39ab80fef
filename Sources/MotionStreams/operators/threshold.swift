/// Where a value lies around a threshold or a range (emitted by `threshold` and `thresholdRange`).
public enum ThresholdEvent: String, Sendable, Equatable {
    case below, within, above
}

extension MotionObservable where T: Comparable {
    /// Emits `below`, `within` (equal) or `above` for each value relative to `threshold`.
    public func threshold(_ threshold: T) -> MotionObservable<ThresholdEvent> {
        _map { $0 < threshold ? .below : ($0 > threshold ? .above : .within) }
    }
}
