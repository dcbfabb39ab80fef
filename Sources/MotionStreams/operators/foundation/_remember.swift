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
    private var observers: [(id: Int, observer: MotionObserver<T>)] = []
    private var nextID = 0
    private var lastValue: T?
    private var lastState: MotionState?
    private var subscription: Subscription?

    init(upstream: MotionObservable<T>) {
        self.upstream = upstream
    }

    func add(_ observer: MotionObserver<T>) -> () -> Void {
        let id = nextID
        nextID += 1
        observers.append((id, observer))
        if subscription == nil {
            subscription = upstream.subscribe(
                next: { [unowned self] value in
                    lastValue = value
                    for entry in observers { entry.observer.next(value) }
                },
                state: { [unowned self] state in
                    lastState = state
                    for entry in observers { entry.observer.state(state) }
                })
        } else {
            if let lastState { observer.state(lastState) }
            if let lastValue { observer.next(lastValue) }
        }
        return { [self] in
            observers.removeAll { $0.id == id }
            if observers.isEmpty {
                subscription?.unsubscribe()
                subscription = nil
                lastValue = nil
                lastState = nil
            }
        }
    }
}
