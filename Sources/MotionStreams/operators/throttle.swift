extension MotionObservable {
    /// A cooldown on input time: emits a value, then drops values until `seconds` have passed
    /// since the one it emitted (a value exactly `seconds` later passes). `now` reads the input
    /// time of the value arriving. States pass through.
    public func throttle(_ seconds: Double, now: @escaping () -> Double) -> MotionObservable<T> {
        MotionObservable { observer in
            var lastEmitted: Double?
            let upstream = self.subscribe(next: { value in
                let t = now()
                // Decimal timestamps (0.1 + 0.3) compare as written.
                if let lastEmitted, t < lastEmitted + seconds - 1e-9 { return }
                lastEmitted = t
                observer.next(value)
            }, state: observer.state)
            return { upstream.unsubscribe() }
        }
    }
}
