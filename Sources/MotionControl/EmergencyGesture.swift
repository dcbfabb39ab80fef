import MotionGestures

/// The emergency stop's touch gesture: five fingers held still for 3 s — nothing anyone does by
/// accident. It fires at the first frame once they have been down and still that long (a still
/// finger may send no events: at the latest when they lift), once per touch.
public struct EmergencyGesture {
    public var fingers = 5
    public var seconds = 3.0
    /// How far (input units) a finger may move and still count as held still.
    public var maxMovement = 50.0

    private var down: [Int: (x: Double, y: Double)] = [:]
    private var stillSince: Double?
    private var fired = false

    public init() {}

    /// Feeds a frame; true when the gesture fires with it.
    public mutating func observe(_ frame: Frame) -> Bool {
        var fires = false
        // Judged on the fingers as they were before this frame's lifts.
        if let since = stillSince, !fired, down.count == fingers, frame.t - since >= seconds {
            fires = true
            fired = true
        }
        for e in frame.events {
            switch e.phase {
            case .down:
                down[e.id] = (e.x, e.y)
                stillSince = down.count == fingers ? frame.t : nil
            case .move:
                if let start = down[e.id], abs(e.x - start.x) > maxMovement || abs(e.y - start.y) > maxMovement {
                    down[e.id] = (e.x, e.y)
                    if down.count == fingers { stillSince = frame.t }
                }
            case .up, .cancel:
                down[e.id] = nil
                stillSince = nil
            }
        }
        if down.isEmpty { fired = false }
        return fires
    }
}
