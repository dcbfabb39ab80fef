import Foundation
import MotionStreams

/// Which way a swipe went, y down (`down` is toward larger y). With diagonals, each direction
/// covers 45°; without, 90° (a movement exactly on a diagonal counts as horizontal).
public enum SwipeDirection: String, Sendable, Equatable, CaseIterable {
    case left, right, up, down, upLeft, upRight, downLeft, downRight

    /// upLeft, upRight, downLeft, downRight.
    public var isDiagonal: Bool {
        switch self {
        case .left, .right, .up, .down: false
        default: true
        }
    }

    /// The direction of a movement `v` (nil for no movement).
    public static func of(_ v: Point, diagonals: Bool) -> SwipeDirection? {
        guard v.x != 0 || v.y != 0 else { return nil }
        if !diagonals {
            if abs(v.x) >= abs(v.y) { return v.x > 0 ? .right : .left }
            return v.y > 0 ? .down : .up
        }
        // Sectors of 45° centred on the eight directions; atan2 with y down.
        let sector = Int((atan2(v.y, v.x) / (Double.pi / 4)).rounded()) & 7
        return [.right, .downRight, .down, .downLeft, .left, .upLeft, .up, .upRight][sector]
    }
}
