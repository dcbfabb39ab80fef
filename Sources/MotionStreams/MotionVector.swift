/// The values springs and tweens animate: numbers and points.
public protocol MotionVector: Equatable {
    static var zero: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, s: Double) -> Self
    /// Absolute value of a number, length of a point.
    var magnitude: Double { get }
    /// No NaN or infinity in any component.
    var isFinite: Bool { get }
}

extension Double: MotionVector {}

extension Point: MotionVector {
    /// The point's length.
    public var magnitude: Double { length }
    /// Whether both components are finite (neither NaN nor infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
