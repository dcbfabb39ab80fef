import MotionStreams

/// What happened to one pointer (finger, pen, mouse button) in an input frame.
public enum PointerPhase: String, Sendable, Equatable {
    case down, move, up, cancel
}

/// One pointer change: the unit of the pointer model every input format decodes to.
public struct PointerEvent: Sendable, Equatable {
    /// Input time in seconds, relative to the first event of the input.
    public var t: Double
    /// Which pointer: stable from `down` to `up` or `cancel`.
    public var id: Int
    /// What happened to it.
    public var phase: PointerPhase
    /// Screen position, x (input units).
    public var x: Double
    /// Screen position, y (input units, y down).
    public var y: Double

    /// One pointer change at input time `t`.
    public init(t: Double, id: Int, phase: PointerPhase, x: Double, y: Double) {
        self.t = t
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
    }

    /// The position as a point.
    public var point: Point { Point(x: x, y: y) }
}

/// The pointer changes that happened at one instant (an evdev SYN_REPORT, or JSON Lines with
/// equal `t`). Recognizers see a frame whole.
public struct Frame: Sendable, Equatable {
    /// Input time of the frame, seconds.
    public var t: Double
    /// The changes, in input order.
    public var events: [PointerEvent]

    /// A frame at input time `t`.
    public init(t: Double, events: [PointerEvent]) {
        self.t = t
        self.events = events
    }
}
