/// Where the virtual keyboard and mouse write their events: the uinput device, or (for tests
/// and for inspection) a file or pipe that receives the raw `struct input_event` records.
/// Each call writes one batch that ends with its own `SYN_REPORT`.
public protocol InputEventSink: AnyObject {
    func write(_ events: [InputEvent]) throws
}

/// Keeps the batches in memory (unit tests).
public final class RecordingSink: InputEventSink {
    public private(set) var batches: [[InputEvent]] = []

    public init() {}

    public func write(_ events: [InputEvent]) throws {
        batches.append(events)
    }

    public var events: [InputEvent] { batches.flatMap { $0 } }

    public func clear() { batches.removeAll() }
}
