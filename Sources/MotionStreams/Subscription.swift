/// A live connection to a stream. `unsubscribe()` disconnects the first time only.
public final class Subscription {
    @usableFromInline var disconnect: (() -> Void)?

    @inlinable
    public init(_ disconnect: @escaping () -> Void) {
        self.disconnect = disconnect
    }

    public var isSubscribed: Bool { disconnect != nil }

    public func unsubscribe() {
        guard let disconnect else { return }
        self.disconnect = nil
        disconnect()
    }
}
