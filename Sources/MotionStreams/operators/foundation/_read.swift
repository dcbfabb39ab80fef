extension MotionObservable {
    /// The value the stream emits synchronously on subscription, if any.
    public func _read() -> T? {
        var result: T?
        let subscription = subscribe(next: { value in
            if result == nil { result = value }
        })
        subscription.unsubscribe()
        return result
    }
}
