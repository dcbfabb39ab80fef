import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the initial scale multiplied by the gesture's scale, with the cache of
    /// `translation(addedTo:)`: the initial value (a stream's latest value) is read on `began`, or
    /// on `changed` when nothing is cached, and forgotten on any other state; the cache belongs to
    /// one subscription.
    public func scale(addedTo initialScale: MotionObservable<Double>) -> MotionObservable<Double> {
        _latestValue(of: initialScale) { latest in self.scale(addedTo: latest) }
    }

    /// The same, reading a property directly.
    public func scale(addedTo initialScale: ReactiveProperty<Double>) -> MotionObservable<Double> {
        scale(addedTo: { initialScale.read() })
    }

    /// The same, with the initial scale given by a read function.
    public func scale(addedTo read: @escaping () -> Double?) -> MotionObservable<Double> {
        _cachedInitialValue(read) { cached, value in cached * value.scale }
    }
}
