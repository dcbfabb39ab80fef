/// Listeners registered under ids, called in registration order and removed by id: what every
/// emitter here (properties, recognizers, the pointer dispatcher) keeps of its observers.
/// `forEach` walks a snapshot, so a listener may add or remove listeners while being called:
/// one added meanwhile waits for the next value, and one removed meanwhile is not called (an
/// action must not run after an earlier listener of the same value disarmed it). Each entry has
/// a flag object for that, made when it is added; calling allocates nothing.
public struct ListenerList<Listener> {
    /// Set when its entry is removed, seen through any snapshot of the list.
    @usableFromInline final class Registration {
        @usableFromInline var isRemoved = false
        @usableFromInline init() {}
    }

    @usableFromInline var entries: [(id: Int, listener: Listener, registration: Registration)] = []
    @usableFromInline var nextID = 0

    /// An empty list.
    @inlinable
    public init() {}

    /// Adds a listener; returns the id that removes it.
    @inlinable
    public mutating func add(_ listener: Listener) -> Int {
        let id = nextID
        nextID += 1
        entries.append((id, listener, Registration()))
        return id
    }

    /// Ids are handed out in increasing order and entries keep that order, so the entry is
    /// found by binary search: removing the newest listeners first (as a closing script does)
    /// costs O(log n) each, and tearing down n listeners stays near-linear.
    @inlinable
    public mutating func remove(_ id: Int) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        if low < entries.count, entries[low].id == id {
            entries[low].registration.isRemoved = true
            entries.remove(at: low)
        }
    }

    /// Removes every listener.
    @inlinable
    public mutating func removeAll() {
        for entry in entries { entry.registration.isRemoved = true }
        entries.removeAll()
    }

    /// How many listeners are registered.
    @inlinable
    public var count: Int { entries.count }

    /// Whether none is.
    @inlinable
    public var isEmpty: Bool { entries.isEmpty }

    /// Calls `body` with each listener of a snapshot, in registration order, skipping those
    /// removed since the snapshot was taken.
    @inlinable
    public func forEach(_ body: (Listener) -> Void) {
        for entry in entries where !entry.registration.isRemoved { body(entry.listener) }
    }

    /// The listener when there is exactly one, else nil. An emitter with one listener (the
    /// usual case) calls it without taking a snapshot of the list: the listener itself is
    /// copied, so it lives through its call even if it removes itself.
    @inlinable
    public var only: Listener? {
        entries.count == 1 ? entries[0].listener : nil
    }
}
