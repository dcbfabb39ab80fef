import MotionGestures

/// Writes the events of several devices into one recording (`EvemuWriter` with several
/// devices) in one timestamp order, whatever order they arrive in per device, with the focus
/// changes among them as app comments: the focus in effect at the first event first, then each
/// change before the first event at or after it. Used by the flight recorder (everything at
/// once) and by `record` with several devices (as it goes: `flush(upTo:)` writes what can no
/// longer be preceded by an event still to come).
public final class MergedRecording {
    public let writer: EvemuWriter
    /// Devices in the order they win ties in time (as the live set, which takes the device it
    /// read first).
    private let tieOrder: [Int]
    private var queues: [[InputEventRecord]]
    private var heads: [Int]
    private var focus: [(micros: Int64, app: AppInfo?)] = []
    private var focusHead = 0
    private var started = false
    private var last = Int64.min
    /// Events that arrived older than one already written: written at its time instead.
    public private(set) var lateEvents = 0
    public private(set) var written = 0

    public init(writer: EvemuWriter, devices: Int, tieOrder: [Int]? = nil) {
        self.writer = writer
        self.tieOrder = tieOrder ?? Array(0..<devices)
        queues = Array(repeating: [], count: devices)
        heads = Array(repeating: 0, count: devices)
    }

    public func append(_ event: InputEventRecord, device: Int) {
        queues[device].append(event)
    }

    /// A focus change at `micros` (the events' clock), in time order.
    public func noteFocus(_ app: AppInfo?, at micros: Int64) {
        focus.append((micros, app))
    }

    /// Writes, earliest first, the queued events at or before `micros` (nil: all of them).
    public func flush(upTo micros: Int64? = nil) throws {
        while true {
            var best = -1
            var bestTime = Int64.max
            for k in tieOrder where heads[k] < queues[k].count {
                let t = Self.micros(queues[k][heads[k]])
                if t < bestTime { (best, bestTime) = (k, t) }
            }
            guard best >= 0, micros.map({ bestTime <= $0 }) ?? true else { break }
            var event = queues[best][heads[best]]
            heads[best] += 1
            if bestTime < last {
                lateEvents += 1
                (event.sec, event.usec) = (last / 1_000_000, last % 1_000_000)
            } else {
                last = bestTime
            }
            try writeFocus(before: max(bestTime, last))
            try writer.write(event, device: best)
            written += 1
        }
        for k in queues.indices where heads[k] > 0 {
            queues[k].removeFirst(heads[k])
            heads[k] = 0
        }
    }

    /// Writes every event left and closes the file.
    public func finish() throws {
        try flush()
        try writer.close()
    }

    private func writeFocus(before t: Int64) throws {
        if !started {
            started = true
            var initial: AppInfo??
            while focusHead < focus.count, focus[focusHead].micros <= t { initial = .some(focus[focusHead].app); focusHead += 1 }
            if case .some(let app) = initial { try writer.write(app: app) }
        }
        while focusHead < focus.count, focus[focusHead].micros <= t {
            try writer.write(app: focus[focusHead].app)
            focusHead += 1
        }
    }

    static func micros(_ e: InputEventRecord) -> Int64 { e.sec &* 1_000_000 &+ e.usec }
}
