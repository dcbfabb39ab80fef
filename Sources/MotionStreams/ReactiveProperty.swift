/// A readable, writable value that is also a stream: subscribing emits the current value at
/// once, and every write notifies every observer (no dedupe).
public final class ReactiveProperty<T> {
    @usableFromInline var value: T
    @usableFromInline var observers = ListenerList<MotionObserver<T>>()

    /// A property holding `initial`.
    public init(_ initial: T) {
        value = initial
    }

    /// The current value.
    @inlinable
    public func read() -> T { value }

    /// Stores `newValue` and sends it to every observer, even if it did not change.
    @inlinable
    public func write(_ newValue: consuming T) {
        if observers.isEmpty {
            // Nobody to tell: the value moves in, no copy made.
            value = newValue
            return
        }
        let sent = copy newValue
        value = newValue
        if let only = observers.only {
            only.next(sent)
            return
        }
        // Iterate a copy: an observer may unsubscribe (or subscribe) while we notify.
        observers.forEach { $0.next(sent) }
    }

    /// How many subscriptions observe the property.
    @inlinable
    public var observerCount: Int { observers.count }

    /// The property as a stream.
    @inlinable
    public var stream: MotionObservable<T> {
        MotionObservable { [self] observer in
            let id = observers.add(observer)
            observer.next(value)
            return { [weak self] in
                self?.observers.remove(id)
            }
        }
    }
}

extension MotionObservable {
    /// Writes every value into `property`.
    @inlinable
    public func subscribe(_ property: ReactiveProperty<T>) -> Subscription {
        subscribe(next: { property.write($0) })
    }
}
