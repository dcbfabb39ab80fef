/// Maps raw axis values to output units: identity without a surface, or the axis range onto the
/// surface side (see `EventFileOptions` for the units decision).
struct AxisMapping {
    private let offset: Double
    private let scale: Double

    static let identity = AxisMapping(offset: 0, scale: 1)

    private init(offset: Double, scale: Double) {
        self.offset = offset
        self.scale = scale
    }

    /// nil when the range is missing or empty, so the caller can say which axis lacks one.
    init?(range: AbsInfo?, length: Double) {
        guard let range, range.maximum > range.minimum else { return nil }
        offset = Double(range.minimum)
        scale = length / (Double(range.maximum) - Double(range.minimum))
    }

    @inline(__always)
    func map(_ value: Int32) -> Double {
        (Double(value) - offset) * scale
    }
}
