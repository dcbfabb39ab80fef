/// A readable, writable value that is also a stream: subscribing emits the current value at
/// once, and every write notifies every observer (no dedupe).
public final class ReactiveProperty<T> {
    private var value: T
    private var observers: [(id: Int, observer: MotionObserver<T>)] = []
    private var nextID = 0

    public init(_ initial: T) {
        value = initial
    }

    public func read() -> T { value }

    public func write(_ newValue: T) {
        value = newValue
        // Iterate a copy: an observer may unsubscribe (or subscribe) while we notify.
        for entry in observers {
            entry.observer.next(newValue)
        }
    }

    public var observerCount: Int { observers.count }

    /// The property as a stream.
    public var stream: MotionObservable<T> {
        MotionObservable { [self] observer in
            let id = nextID
            nextID += 1
            observers.append((id, observer))
            observer.next(value)
            return { [weak self] in
                self?.observers.removeAll { $0.id == id }
            }
        }
    }
}

extension MotionObservable {
    /// Writes every value into `property`.
    @discardableResult
    public func subscribe(_ property: ReactiveProperty<T>) -> Subscription {
        subscribe(next: { property.write($0) })
    }
}
