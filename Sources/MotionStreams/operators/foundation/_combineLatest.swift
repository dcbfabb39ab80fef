extension MotionObservable {
    /// Emits `combine(value, latest)` each time this stream or `other` emits, once both have: an
    /// operator whose argument is a stream that re-emits when the argument changes (Material
    /// Motion's `distance(from:)`: values 10, 20 and a `from` of 10 then 15 give 0, 10, 5).
    /// States are this stream's; each connection follows `other` anew until it disconnects.
    public func _combineLatest<U, R>(_ other: MotionObservable<U>,
                                     _ combine: @escaping (T, U, (R) -> Void) -> Void) -> MotionObservable<R> {
        MotionObservable<R> { observer in
            let latest = LatestPair<T, U>()
            let next = observer.next
            let following = other.subscribe(next: { origin in
                latest.other = origin
                if let value = latest.value { combine(value, origin, next) }
            })
            let disconnect = self.connect(MotionObserver(next: { value in
                latest.value = value
                if let origin = latest.other { combine(value, origin, next) }
            }, state: observer.state))
            return {
                disconnect()
                following.unsubscribe()
            }
        }
    }
}

private final class LatestPair<T, U> {
    var value: T?
    var other: U?
}
