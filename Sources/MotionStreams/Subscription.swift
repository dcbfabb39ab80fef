/// A live connection to a stream. `unsubscribe()` disconnects the first time only; so does
/// dropping the last reference: a connection lasts as long as someone holds its subscription.
/// Every operator keeps the subscriptions it makes in its disconnect closure, and a Lua script's
/// subscriptions are kept by its runtime until unsubscribed or the script ends, whether or not
/// the script keeps a reference (docs/reference.md, "The Swift libraries"): so only a subscription dropped
/// by Swift code is ended early; none stays connected, and leaks, once nobody holds it.
public final class Subscription {
    @usableFromInline var disconnect: (() -> Void)?

    /// A subscription that calls `disconnect` on its first `unsubscribe()`.
    @inlinable
    public init(_ disconnect: @escaping () -> Void) {
        self.disconnect = disconnect
    }

    deinit { unsubscribe() }

    /// Whether `unsubscribe()` has not been called yet.
    public var isSubscribed: Bool { disconnect != nil }

    /// Disconnects from the stream; later calls do nothing.
    public func unsubscribe() {
        guard let disconnect else { return }
        self.disconnect = nil
        disconnect()
    }
}
