/// A live connection to a stream. `unsubscribe()` disconnects the first time only.
public final class Subscription {
    @usableFromInline var disconnect: (() -> Void)?

    /// A subscription that calls `disconnect` on its first `unsubscribe()`.
    @inlinable
    public init(_ disconnect: @escaping () -> Void) {
        self.disconnect = disconnect
    }

    /// Whether `unsubscribe()` has not been called yet.
    public var isSubscribed: Bool { disconnect != nil }

    /// Disconnects from the stream; later calls do nothing.
    public func unsubscribe() {
        guard let disconnect else { return }
        self.disconnect = nil
        disconnect()
    }
}
