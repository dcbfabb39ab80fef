import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the initial position plus the gesture's translation in `element` (seed 001).
    /// The initial position is `initialPosition`'s latest value (followed for as long as the
    /// result is subscribed), read on `began`, or on `changed` when nothing is cached, and
    /// forgotten on any other state; the cache belongs to one subscription.
    public func translation(addedTo initialPosition: MotionObservable<Point>,
                            in element: Element = .screen) -> MotionObservable<Point> {
        _latestValue(of: initialPosition) { latest in self.translation(addedTo: latest, in: element) }
    }

    /// The same, reading a property directly.
    public func translation(addedTo initialPosition: ReactiveProperty<Point>,
                            in element: Element = .screen) -> MotionObservable<Point> {
        translation(addedTo: { initialPosition.read() }, in: element)
    }

    /// The same, with the initial position given by a read function.
    public func translation(addedTo read: @escaping () -> Point?,
                            in element: Element = .screen) -> MotionObservable<Point> {
        _cachedInitialValue(read) { cached, value in
            let translation = value.translation(in: element)
            return Point(x: cached.x + translation.x, y: cached.y + translation.y)
        }
    }
}
