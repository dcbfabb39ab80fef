/// A 2-D point or vector in some element's coordinate space.
public struct Point: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate (y down on screens).
    public var y: Double

    /// The point (`x`, `y`).
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// (0, 0).
    @inlinable
    public static var zero: Point { Point(x: 0, y: 0) }

    /// Euclidean length, as a vector.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }
    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }

    /// Component-wise sum.
    @inlinable
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference.
    @inlinable
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both components times `s`.
    @inlinable
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// Both components divided by `s`.
    @inlinable
    public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
}
