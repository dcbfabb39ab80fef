import MotionGestures

/// An event held until its frame's `SYN_REPORT`, with its place in the source (line or byte offset).
struct PendingEvent {
    var type: UInt16
    var code: UInt16
    var value: Int32
    var place: Int
}

/// Where a protocol sends the pointer changes of a frame, in device units.
typealias EmitPointer = (PointerPhase, _ id: Int, _ x: Int32, _ y: Int32) -> Void
