extension MotionObservable {
    /// Emits `initial`, then every upstream value, remembered (`_remember`): all subscribers
    /// share one upstream connection and each new one receives the latest value at once. On a
    /// property holding 0, `startWith(10)` gives 0 (the property's value replaces 10 while
    /// connecting); a subscriber arriving after the stream emitted 50 receives 50.
    public func startWith(_ initial: T) -> MotionObservable<T> {
        MotionObservable { observer in
            observer.next(initial)
            return self.connect(observer)
        }._remember()
    }
}
