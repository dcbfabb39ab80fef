extension MotionObservable {
    /// Shares one upstream connection among all observers and replays the last value
    /// (and the last state) to each new observer.
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
        let id = observers.add(observer)
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
        } else {
            if let lastState { observer.state(lastState) }
            if let lastValue { observer.next(lastValue) }
        }
        return { [self] in
            observers.remove(id)
            if observers.isEmpty {
                subscription?.unsubscribe()
                subscription = nil
                lastValue = nil
                lastState = nil
            }
        }
    }
}
