import Foundation
import MotionStreams

/// A region of the screen with its own coordinate space: a screen point p maps to
/// R(-rotation) · (p − origin) / scale.
public final class Element: Sendable {
    /// The element's origin on the screen, x.
    public let x: Double
    /// The element's origin on the screen, y.
    public let y: Double
    /// Width in the element's own units (before `scale`); pointers that go down inside it count.
    public let width: Double
    /// Height in the element's own units (before `scale`).
    public let height: Double
    /// Radians the element is turned on the screen (y down: clockwise is positive).
    public let rotation: Double
    /// Screen units per element unit.
    public let scale: Double
    /// Whether this is `Element.screen`, the whole input surface (contains every point).
    public let isScreen: Bool
    @usableFromInline let cosR: Double
    @usableFromInline let sinR: Double

    /// A region at (`x`, `y`), `width` × `height`, turned by `rotation` radians about its origin
    /// and scaled by `scale`.
    public convenience init(x: Double = 0, y: Double = 0, width: Double, height: Double,
                rotation: Double = 0, scale: Double = 1) {
        self.init(x: x, y: y, width: width, height: height, rotation: rotation, scale: scale, isScreen: false)
    }

    private init(x: Double, y: Double, width: Double, height: Double,
                 rotation: Double, scale: Double, isScreen: Bool) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rotation = rotation
        self.scale = scale
        self.isScreen = isScreen
        cosR = cos(rotation)
        sinR = sin(rotation)
    }

    /// The whole input surface: identity coordinates, contains every point.
    public static let screen = Element(x: 0, y: 0, width: .infinity, height: .infinity,
                                       rotation: 0, scale: 1, isScreen: true)

    /// The whole input surface with a known size (`--surface`): still contains every point, so
    /// nothing outside it is missed; `width`/`height` tell scripts how large it is.
    public static func screen(width: Double, height: Double) -> Element {
        Element(x: 0, y: 0, width: width, height: height, rotation: 0, scale: 1, isScreen: true)
    }

    /// A screen-space vector in this element's space (no origin shift).
    @inlinable
    public func convertVector(fromScreen v: Point) -> Point {
        if isScreen { return v }
        return Point(x: (v.x * cosR + v.y * sinR) / scale, y: (-v.x * sinR + v.y * cosR) / scale)
    }

    /// A screen point in this element's space.
    @inlinable
    public func convert(fromScreen p: Point) -> Point {
        if isScreen { return p }
        return convertVector(fromScreen: Point(x: p.x - x, y: p.y - y))
    }

    /// Whether a screen point lies inside the element (edges included).
    public func contains(_ screenPoint: Point) -> Bool {
        if isScreen { return true }
        let p = convert(fromScreen: screenPoint)
        return p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height
    }
}
