/// What `slop(size:)` emits.
public enum SlopEvent: String, Sendable, Equatable {
    /// The value left the slop region [−size, size].
    case onExit
    /// The value came back into the slop region after leaving it.
    case onReturn
}

extension MotionObservable where T == Double {
    /// Emits `onExit` when the value first leaves [−size, size] (strictly below −size or above
    /// size), then `onReturn` / `onExit` each time it re-enters / leaves again. Nothing is
    /// emitted before the first exit, and never the same event twice in a row. A negative size
    /// counts as positive.
    public func slop(size: Double) -> MotionObservable<SlopEvent> {
        let size = abs(size)
        return _nextOperator(perSubscription: {
            var last: SlopEvent?
            return { value, next in
                let outside = value < -size || value > size
                let event: SlopEvent? = outside ? .onExit : (last == nil ? nil : .onReturn)
                if let event, event != last {
                    last = event
                    next(event)
                }
            }
        })
    }
}
