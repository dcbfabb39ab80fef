extension MotionObservable {
    /// The base of every operator: `operation` may call `next` zero or more times per value.
    /// States are forwarded unchanged.
    @inlinable
    public func _nextOperator<U>(_ operation: @escaping (T, (U) -> Void) -> Void) -> MotionObservable<U> {
        _nextOperator(perSubscription: { operation })
    }

    /// Like `_nextOperator`, but `makeOperation` runs once per subscription, so state it
    /// captures (caches, last values) is never shared between two subscriptions.
    @inlinable
    public func _nextOperator<U>(
        perSubscription makeOperation: @escaping () -> (T, (U) -> Void) -> Void
    ) -> MotionObservable<U> {
        MotionObservable<U> { observer in
            let operation = makeOperation()
            let next = observer.next
            return self.connect(MotionObserver(next: { operation($0, next) }, state: observer.state))
        }
    }
}
