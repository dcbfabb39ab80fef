import MotionStreams

/// Records what a stream emits, channels interleaved in arrival order.
final class Recorder<T> {
    enum Event { case next(T), state(MotionState) }
    private(set) var events: [Event] = []
    var values: [T] { events.compactMap { if case .next(let v) = $0 { v } else { nil } } }
    var states: [MotionState] { events.compactMap { if case .state(let s) = $0 { s } else { nil } } }
    var subscription: Subscription!

    init(_ stream: MotionObservable<T>) {
        subscription = stream.subscribe(next: { [weak self] in self?.events.append(.next($0)) },
                                        state: { [weak self] in self?.events.append(.state($0)) })
    }
}

/// A stream that emits `values` synchronously at subscription.
func just<T>(_ values: [T]) -> MotionObservable<T> {
    MotionObservable { observer in
        values.forEach(observer.next)
        return {}
    }
}
