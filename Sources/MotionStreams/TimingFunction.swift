/// An easing curve from progress in time (0…1) to progress in value, as a cubic Bézier from
/// (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2) (the CSS / Core Animation model).
public struct TimingFunction: Sendable, Equatable {
    /// The Bézier's control points.
    public let x1: Double, y1: Double, x2: Double, y2: Double

    /// `x1` and `x2` must lie in 0…1 so that the curve is a function of time.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws {
        try OptionError.check((0...1).contains(x1) && (0...1).contains(x2) && y1.isFinite && y2.isFinite,
                              "timingFunction", [x1, y1, x2, y2], "a cubic Bézier with x1 and x2 in 0…1, y1 and y2 finite")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    private init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// Progress in value equals progress in time.
    public static let linear = TimingFunction(unchecked: 0, 0, 1, 1)
    /// Starts slowly (0.42, 0, 1, 1).
    public static let easeIn = TimingFunction(unchecked: 0.42, 0, 1, 1)
    /// Ends slowly (0, 0, 0.58, 1).
    public static let easeOut = TimingFunction(unchecked: 0, 0, 0.58, 1)
    /// Starts and ends slowly (0.42, 0, 0.58, 1): the tween default.
    public static let easeInOut = TimingFunction(unchecked: 0.42, 0, 0.58, 1)

    /// The eased progress at time progress `x` (clamped to 0…1).
    public func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return x }
        // Solve bx(s) = x for the curve parameter s (Newton, then bisection as a fallback).
        var s = x
        for _ in 0..<8 {
            let error = Self.bezier(s, x1, x2) - x
            if abs(error) < 1e-12 { return Self.bezier(s, y1, y2) }
            let slope = Self.bezierSlope(s, x1, x2)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
        }
        var low = 0.0, high = 1.0
        s = x
        for _ in 0..<60 {
            let value = Self.bezier(s, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return Self.bezier(s, y1, y2)
    }

    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func bezierSlope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}
