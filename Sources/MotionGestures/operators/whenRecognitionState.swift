import MotionStreams

extension MotionObservable where T == GestureValue {
    /// Emits the gesture values whose state is `state`.
    public func whenRecognitionState(is state: GestureState) -> MotionObservable<GestureValue> {
        _filter { $0.state == state }
    }

    /// Emits the gesture values whose state is one of `states`.
    public func whenRecognitionState(isAnyOf states: [GestureState]) -> MotionObservable<GestureValue> {
        _filter { states.contains($0.state) }
    }
}
