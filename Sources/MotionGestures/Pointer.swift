import MotionStreams

/// What happened to one pointer (finger, pen, mouse button) in an input frame.
public enum PointerPhase: String, Sendable, Equatable {
    case down, move, up, cancel
}

/// One pointer change: the unit of the pointer model every input format decodes to.
public struct PointerEvent: Sendable, Equatable {
    /// Input time in seconds, relative to the first event of the input.
    public var t: Double
    public var id: Int
    public var phase: PointerPhase
    public var x: Double
    public var y: Double

    public init(t: Double, id: Int, phase: PointerPhase, x: Double, y: Double) {
        self.t = t
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
    }

    public var point: Point { Point(x: x, y: y) }
}

/// The pointer changes that happened at one instant (an evdev SYN_REPORT, or JSON Lines with
/// equal `t`). Recognizers see a frame whole.
public struct Frame: Sendable, Equatable {
    public var t: Double
    public var events: [PointerEvent]

    public init(t: Double, events: [PointerEvent]) {
        self.t = t
        self.events = events
    }
}
