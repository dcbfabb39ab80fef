extension MotionObservable {
    /// Emits `initial` at subscription, then every upstream value.
    public func startWith(_ initial: T) -> MotionObservable<T> {
        MotionObservable { observer in
            observer.next(initial)
            return self.connect(observer)
        }
    }
}
