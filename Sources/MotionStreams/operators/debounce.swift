extension MotionObservable {
    /// Emits a value once no newer one came for `seconds` of input time, when `clock` reaches
    /// that time (the value is stamped with it). A newer value restarts the wait; unsubscribing
    /// drops the one waiting. `now` reads the input time of the value arriving. States pass
    /// through at once.
    public func debounce(_ seconds: Double, on clock: InputClock, now: @escaping () -> Double) -> MotionObservable<T> {
        MotionObservable { observer in
            var waiting: ScheduledAction?
            let upstream = self.subscribe(next: { value in
                waiting?.cancel()
                waiting = clock.schedule(at: now() + seconds) {
                    waiting = nil
                    observer.next(value)
                }
            }, state: observer.state)
            return {
                upstream.unsubscribe()
                waiting?.cancel()
                waiting = nil
            }
        }
    }
}
