/// The flight recorder's memory for one device: the last raw events it produced, in a ring of
/// fixed capacity allocated once (appending allocates nothing, so the per-event path stays
/// allocation-free). `events(since:)` takes what lies in a time window, starting at a frame
/// boundary so a replay begins with whole frames.
public final class RawEventRing {
    public let capacity: Int
    private var storage: [InputEventRecord]
    private var next = 0
    private var count = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = Array(repeating: InputEventRecord(sec: 0, usec: 0, type: 0, code: 0, value: 0), count: self.capacity)
    }

    @inline(__always)
    public func append(_ event: InputEventRecord) {
        storage[next] = event
        next = next + 1 == capacity ? 0 : next + 1
        if count < capacity { count += 1 }
    }

    public var isEmpty: Bool { count == 0 }

    /// The newest event's time in microseconds (nil when empty).
    public var lastMicroseconds: Int64? {
        guard count > 0 else { return nil }
        let e = storage[(next - 1 + capacity) % capacity]
        return e.sec * 1_000_000 + e.usec
    }

    /// Oldest first, the events at or after `microseconds`, from the first event after a
    /// SYN_REPORT (the ring may have cut a frame in two).
    public func events(since microseconds: Int64) -> [InputEventRecord] {
        var out: [InputEventRecord] = []
        out.reserveCapacity(count)
        let first = (next - count + capacity) % capacity
        for i in 0..<count {
            let e = storage[(first + i) % capacity]
            if e.sec * 1_000_000 + e.usec >= microseconds { out.append(e) }
        }
        // Drop a partial first frame: up to and including the first SYN_REPORT, unless the
        // window starts exactly at the ring's beginning after a report.
        if count == capacity || (out.count < count && !out.isEmpty) {
            if let report = out.firstIndex(where: { $0.type == EV.SYN && $0.code == SYN.REPORT }) {
                out.removeSubrange(...report)
            }
        }
        return out
    }
}
