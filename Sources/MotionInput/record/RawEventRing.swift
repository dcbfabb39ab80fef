/// The flight recorder's memory for one device: the last raw events it produced, in a ring of
/// fixed capacity allocated once (appending allocates nothing, so the per-event path stays
/// allocation-free). `events(since:)` takes what lies in a time window, starting at a frame
/// boundary so a replay begins with whole frames.
public final class RawEventRing {
    public let capacity: Int
    /// Written in place per event: no array uniqueness check or reference counting there.
    private let storage: UnsafeMutablePointer<InputEventRecord>
    private var next = 0
    private var count = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
        storage.initialize(repeating: InputEventRecord(sec: 0, usec: 0, type: 0, code: 0, value: 0), count: self.capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    public func append(_ event: InputEventRecord) {
        storage[next] = event
        next = next + 1 == capacity ? 0 : next + 1
        if count < capacity { count += 1 }
    }

    public var isEmpty: Bool { count == 0 }

    /// Hands out every event held, oldest first, and empties the ring (`record` with several
    /// devices takes what each read brought).
    public func drain(_ body: (InputEventRecord) -> Void) {
        let first = (next - count + capacity) % capacity
        for i in 0..<count { body(storage[(first + i) % capacity]) }
        count = 0
    }

    /// The newest event's time in microseconds (nil when empty).
    public var lastMicroseconds: Int64? {
        guard count > 0 else { return nil }
        let e = storage[(next - 1 + capacity) % capacity]
        return e.sec * 1_000_000 + e.usec
    }

    /// Oldest first, the events at or after `microseconds`, starting at a frame: when the
    /// window (or the ring's overwriting) cut a frame in two, its rest is left out.
    public func events(since microseconds: Int64) -> [InputEventRecord] {
        let first = (next - count + capacity) % capacity
        func at(_ i: Int) -> InputEventRecord { storage[(first + i) % capacity] }
        var start = 0
        while start < count, at(start).sec * 1_000_000 + at(start).usec < microseconds { start += 1 }
        let cut = start > 0 ? !Self.isReport(at(start - 1)) : count == capacity
        if cut {
            while start < count, !Self.isReport(at(start)) { start += 1 }
            start += 1
        }
        var out: [InputEventRecord] = []
        if start < count {
            out.reserveCapacity(count - start)
            for i in start..<count { out.append(at(i)) }
        }
        return out
    }

    private static func isReport(_ e: InputEventRecord) -> Bool { e.type == EV.SYN && e.code == SYN.REPORT }
}
