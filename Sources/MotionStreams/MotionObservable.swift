/// A cold, indefinite stream: each `subscribe` connects anew; it never completes or fails.
public struct MotionObservable<T> {
    public typealias Disconnect = () -> Void
    public let connect: (MotionObserver<T>) -> Disconnect

    @inlinable
    public init(_ connect: @escaping (MotionObserver<T>) -> Disconnect) {
        self.connect = connect
    }

    @inlinable @discardableResult
    public func subscribe(_ observer: MotionObserver<T>) -> Subscription {
        Subscription(connect(observer))
    }

    @inlinable @discardableResult
    public func subscribe(next: @escaping (T) -> Void,
                          state: @escaping (MotionState) -> Void = { _ in }) -> Subscription {
        subscribe(MotionObserver(next: next, state: state))
    }
}
