/// A cold, indefinite stream: each `subscribe` connects anew; it never completes or fails.
public struct MotionObservable<T> {
    /// What `connect` returns: stops the connection it made.
    public typealias Disconnect = () -> Void
    /// Connects an observer to the source anew and returns how to disconnect it.
    public let connect: (MotionObserver<T>) -> Disconnect

    /// A stream whose every subscription calls `connect`.
    @inlinable
    public init(_ connect: @escaping (MotionObserver<T>) -> Disconnect) {
        self.connect = connect
    }

    /// Connects `observer`; the returned subscription disconnects it (also when dropped: keep it).
    @inlinable
    public func subscribe(_ observer: MotionObserver<T>) -> Subscription {
        Subscription(connect(observer))
    }

    /// Connects closures for the value and state channels.
    @inlinable
    public func subscribe(next: @escaping (T) -> Void,
                          state: @escaping (MotionState) -> Void = { _ in }) -> Subscription {
        subscribe(MotionObserver(next: next, state: state))
    }
}
