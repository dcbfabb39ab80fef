/// Maps raw axis values to output units: identity without a surface, or the axis range onto the
/// surface side (see `EventFileOptions` for the units decision).
/// The value's share of the range is taken first and then scaled, so the ends of the range land
/// exactly on 0 and the side (a precomputed side/span factor puts the maximum a rounding off).
struct AxisMapping {
    private let offset: Double
    private let span: Double
    private let length: Double

    static let identity = AxisMapping(offset: 0, span: 1, length: 1)

    private init(offset: Double, span: Double, length: Double) {
        self.offset = offset
        self.span = span
        self.length = length
    }

    /// nil when the range is missing or empty, so the caller can say which axis lacks one.
    init?(range: AbsInfo?, length: Double) {
        guard let range, range.maximum > range.minimum else { return nil }
        offset = Double(range.minimum)
        span = Double(range.maximum) - Double(range.minimum)
        self.length = length
    }

    @inline(__always)
    func map(_ value: Int32) -> Double {
        (Double(value) - offset) / span * length
    }
}
