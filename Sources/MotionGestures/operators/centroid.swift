import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the centroid of the gesture's pointers in `element`'s coordinate space.
    public func centroid(in element: Element = .screen) -> MotionObservable<Point> {
        _map { $0.location(in: element) }
    }
}
