extension MotionObservable {
    /// Emits each value (and state) `seconds` of input time after the upstream did, on `clock`.
    /// Nothing runs on the wall clock: a delayed value comes out when the host advances `clock`
    /// past its time. Unsubscribing drops what is still pending.
    public func delay(by seconds: Double, on clock: InputClock) -> MotionObservable<T> {
        MotionObservable { observer in
            var pending: [Int: ScheduledAction] = [:]
            var nextID = 0
            func later(_ action: @escaping () -> Void) {
                let id = nextID
                nextID += 1
                pending[id] = clock.schedule(at: clock.now + seconds) {
                    pending[id] = nil
                    action()
                }
            }
            let upstream = self.subscribe(next: { value in later { observer.next(value) } },
                                          state: { state in later { observer.state(state) } })
            return {
                upstream.unsubscribe()
                for action in pending.values { action.cancel() }
                pending.removeAll()
            }
        }
    }
}
