import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the gesture's translation velocity in `element`'s coordinate space, units per second.
    public func velocity(in element: Element = .screen) -> MotionObservable<Point> {
        _map { $0.velocity(in: element) }
    }
}
