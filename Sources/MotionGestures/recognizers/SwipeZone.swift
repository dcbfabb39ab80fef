import MotionStreams

/// Where a swipe must start (`from =`): within `depth` screen units of an edge of the
/// recognizer's element, or inside another element.
public enum SwipeZone: Sendable {
    case edge(Edge, depth: Double)
    case element(Element)

    /// An edge of the recognizer's element (left and top are at 0).
    public enum Edge: String, Sendable, CaseIterable {
        case left, right, top, bottom
    }

    /// Default depth of an edge zone, in screen units.
    public static let defaultDepth = 10.0

    /// How far a start point (screen space) is from an edge zone's edge, inward (nil for an
    /// element zone): what `contains` compares with the depth.
    func distanceFromEdge(_ screenPoint: Point, bounds: Element) -> Double? {
        guard case .edge(let edge, _) = self else { return nil }
        let p = bounds.convert(fromScreen: screenPoint)
        switch edge {
        case .left: return p.x
        case .top: return p.y
        case .right: return bounds.width - p.x
        case .bottom: return bounds.height - p.y
        }
    }

    /// Whether a start point (screen space) lies in the zone; `bounds` is the recognizer's element.
    func contains(_ screenPoint: Point, bounds: Element) -> Bool {
        switch self {
        case .element(let zone):
            return zone.contains(screenPoint)
        case .edge(let edge, let depth):
            let p = bounds.convert(fromScreen: screenPoint)
            switch edge {
            case .left: return p.x <= depth
            case .top: return p.y <= depth
            case .right: return p.x >= bounds.width - depth
            case .bottom: return p.y >= bounds.height - depth
            }
        }
    }
}
