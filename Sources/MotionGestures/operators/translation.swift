import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the gesture's translation in `element`'s coordinate space.
    public func translation(in element: Element = .screen) -> MotionObservable<Point> {
        _map { $0.translation(in: element) }
    }
}
