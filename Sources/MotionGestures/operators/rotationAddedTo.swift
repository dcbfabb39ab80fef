import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the initial rotation plus the gesture's rotation (radians), with the cache of
    /// `translation(addedTo:)`: the initial value (a stream's latest value) is read on `began`, or
    /// on `changed` when nothing is cached, and forgotten on any other state; the cache belongs to
    /// one subscription.
    public func rotation(addedTo initialRotation: MotionObservable<Double>) -> MotionObservable<Double> {
        _latestValue(of: initialRotation) { latest in self.rotation(addedTo: latest) }
    }

    /// The same, reading a property directly.
    public func rotation(addedTo initialRotation: ReactiveProperty<Double>) -> MotionObservable<Double> {
        rotation(addedTo: { initialRotation.read() })
    }

    /// The same, with the initial rotation given by a read function.
    public func rotation(addedTo read: @escaping () -> Double?) -> MotionObservable<Double> {
        _cachedInitialValue(read) { cached, value in cached + value.rotation }
    }
}
