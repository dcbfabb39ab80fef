extension MotionObservable {
    /// Emits `transform(value)` for every value.
    @inlinable
    public func _map<U>(_ transform: @escaping (T) -> U) -> MotionObservable<U> {
        MotionObservable<U> { observer in
            let next = observer.next
            return self.connect(MotionObserver(next: { next(transform($0)) }, state: observer.state))
        }
    }
}
