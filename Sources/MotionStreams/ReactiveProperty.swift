/// A readable, writable value that is also a stream: subscribing emits the current value at
/// once, and every write notifies every observer (no dedupe).
public final class ReactiveProperty<T> {
    @usableFromInline var value: T
    @usableFromInline var observers: [(id: Int, observer: MotionObserver<T>)] = []
    @usableFromInline var nextID = 0

    public init(_ initial: T) {
        value = initial
    }

    @inlinable
    public func read() -> T { value }

    @inlinable
    public func write(_ newValue: T) {
        value = newValue
        // Iterate a copy: an observer may unsubscribe (or subscribe) while we notify.
        for entry in observers {
            entry.observer.next(newValue)
        }
    }

    public var observerCount: Int { observers.count }

    /// The property as a stream.
    @inlinable
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
    @inlinable @discardableResult
    public func subscribe(_ property: ReactiveProperty<T>) -> Subscription {
        subscribe(next: { property.write($0) })
    }
}
