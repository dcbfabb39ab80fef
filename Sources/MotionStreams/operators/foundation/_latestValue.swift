/// Builds a stream that follows `source` for as long as it is connected: `make` receives a
/// function reading `source`'s latest value (nil until it has emitted). Each connection follows
/// `source` anew and stops following it on disconnect. This is how an operator argument that is
/// a stream (`distance(from:)`, `translation(addedTo:)`) is read: its latest value.
public func _latestValue<U, R>(of source: MotionObservable<U>,
                               _ make: @escaping (_ latest: @escaping () -> U?) -> MotionObservable<R>) -> MotionObservable<R> {
    MotionObservable { observer in
        let latest = LatestValueBox<U>()
        let following = source.subscribe(next: { latest.value = $0 })
        let disconnect = make({ latest.value }).connect(observer)
        return {
            disconnect()
            following.unsubscribe()
        }
    }
}

private final class LatestValueBox<U> {
    var value: U?
}
