/// MM's rubber-band coefficient (an approximation of iOS scroll views).
public let rubberBandCoefficient = 0.55

/// `value` inside [below, above] unchanged; outside, the excess x is replaced by
/// band(x) = L·(1 − 1/(x·c/L + 1)), which stays below L = `maxLength`. With L ≤ 0 there is no
/// band and the result is `below`, wherever the value is.
public func rubberBand(_ value: Double, below: Double, above: Double, maxLength: Double) -> Double {
    if value >= below && value <= above { return value }
    if maxLength <= 0 { return below }
    func band(_ x: Double) -> Double { maxLength * (1 - 1 / (x * rubberBandCoefficient / maxLength + 1)) }
    return value > above ? above + band(value - above) : below - band(below - value)
}

extension MotionObservable where T == Double {
    /// Emits each value, with resistance applied past `below` and `above` (see `rubberBand`).
    public func rubberBanded(below: Double, above: Double, maxLength: Double) -> MotionObservable<Double> {
        _map { rubberBand($0, below: below, above: above, maxLength: maxLength) }
    }
}

extension MotionObservable where T == Point {
    /// Emits each point rubber-banded per axis: x within [below.x, above.x], y within
    /// [below.y, above.y] (the corners of a rectangle).
    public func rubberBanded(below: Point, above: Point, maxLength: Double) -> MotionObservable<Point> {
        _map {
            Point(x: rubberBand($0.x, below: below.x, above: above.x, maxLength: maxLength),
                  y: rubberBand($0.y, below: below.y, above: above.y, maxLength: maxLength))
        }
    }
}
