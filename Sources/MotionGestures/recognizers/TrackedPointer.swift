import MotionStreams

/// A pointer a recognizer follows, from the frame it went down inside the element.
public struct TrackedPointer: Sendable, Equatable {
    /// The input pointer's id.
    public let id: Int
    /// Where it went down, and when.
    public let downPosition: Point
    /// Input time it went down.
    public let downTime: Double
    /// Where it was when the current frame started (its down position if it went down in it).
    public var start: Point
    /// Where it is now (for a lifted pointer: where it lifted).
    public var position: Point
    /// Whether it was tracked before the current frame.
    public var existedBefore: Bool
}
