import MotionStreams

extension MotionObservable where T == GestureValue {
    /// The cache behind `translation(addedTo:)`, `rotation(addedTo:)` and `scale(addedTo:)`
    /// (seed 001): on `began`, or on `changed` with an empty cache, cache = `read()`; on any
    /// other state the cache is cleared; while it is set, emit `combine(cache, value)`.
    /// Each subscription has its own cache.
    public func _cachedInitialValue<V, U>(_ read: @escaping () -> V?,
                                          _ combine: @escaping (V, GestureValue) -> U) -> MotionObservable<U> {
        // One closure per value (not an operation called from a forwarding closure): this is
        // the per-event path of every drag, turn and pinch.
        MotionObservable<U> { observer in
            var cached: V?
            let next = observer.next
            return self.connect(MotionObserver(next: { value in
                if value.state == .began || (value.state == .changed && cached == nil) {
                    cached = read()
                } else if value.state != .began && value.state != .changed {
                    cached = nil
                }
                if let cached { next(combine(cached, value)) }
            }, state: observer.state))
        }
    }
}
