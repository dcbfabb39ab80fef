extension MotionObservable {
    /// Shares one upstream connection among all observers and replays the last value (and the
    /// last state) to each new observer, as Material Motion's `_remember` does:
    /// - the first observer connects upstream and is added only after that connection is made,
    ///   so whatever upstream emits while connecting reaches it once, as the replayed last value
    ///   (`startWith(10)` on a property holding 0 gives 0, not 10 then 0);
    /// - the last value survives the last unsubscribe: a later observer is replayed it, after
    ///   upstream had its chance to emit a newer one while reconnecting.
    public func _remember() -> MotionObservable<T> {
        let hub = RememberHub(upstream: self)
        return MotionObservable { observer in hub.add(observer) }
    }
}

private final class RememberHub<T> {
    private let upstream: MotionObservable<T>
    private var observers = ListenerList<MotionObserver<T>>()
    private var lastValue: T?
    private var lastState: MotionState?
    private var subscription: Subscription?

    init(upstream: MotionObservable<T>) {
        self.upstream = upstream
    }

    func add(_ observer: MotionObserver<T>) -> () -> Void {
        if subscription == nil {
            subscription = upstream.subscribe(
                next: { [unowned self] value in
                    lastValue = value
                    observers.forEach { $0.next(value) }
                },
                state: { [unowned self] state in
                    lastState = state
                    observers.forEach { $0.state(state) }
                })
        }
        // Added after connecting so that nothing is sent twice.
        let id = observers.add(observer)
        if let lastState { observer.state(lastState) }
        if let lastValue { observer.next(lastValue) }
        var connected = true
        return { [self] in
            guard connected else { return }
            connected = false
            observers.remove(id)
            if observers.isEmpty {
                subscription?.unsubscribe()
                subscription = nil
            }
        }
    }
}
