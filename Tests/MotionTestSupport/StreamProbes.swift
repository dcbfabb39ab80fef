import MotionStreams

/// Records what a stream emits, channels interleaved in arrival order.
public final class Recorder<T> {
    public enum Event { case next(T), state(MotionState) }
    public private(set) var events: [Event] = []
    public var values: [T] { events.compactMap { if case .next(let v) = $0 { v } else { nil } } }
    public var states: [MotionState] { events.compactMap { if case .state(let s) = $0 { s } else { nil } } }
    public var subscription: Subscription!

    public init(_ stream: MotionObservable<T>) {
        subscription = stream.subscribe(next: { [weak self] in self?.events.append(.next($0)) },
                                        state: { [weak self] in self?.events.append(.state($0)) })
    }
}

/// A hot stream driven by hand: `send` reaches every current observer.
public final class Subject<T> {
    private var observers: [Int: MotionObserver<T>] = [:]
    private var nextID = 0

    public init() {}

    public var stream: MotionObservable<T> {
        MotionObservable { [self] observer in
            let id = nextID
            nextID += 1
            observers[id] = observer
            return { [self] in observers[id] = nil }
        }
    }

    public func send(_ value: T) { for observer in observers.values { observer.next(value) } }
}

/// A stream that emits `values` synchronously at subscription.
public func just<T>(_ values: [T]) -> MotionObservable<T> {
    MotionObservable { observer in
        values.forEach(observer.next)
        return {}
    }
}
