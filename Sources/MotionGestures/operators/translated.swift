import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Seed 000's name for `translation(addedTo:in:)`: the same operator.
    public func translated(from initialPosition: MotionObservable<Point>,
                           in element: Element = .screen) -> MotionObservable<Point> {
        translation(addedTo: initialPosition, in: element)
    }

    /// The same, reading a property directly.
    public func translated(from initialPosition: ReactiveProperty<Point>,
                           in element: Element = .screen) -> MotionObservable<Point> {
        translation(addedTo: initialPosition, in: element)
    }
}
