/// A rectangle in output units onto which absolute axes are mapped (`--surface WxH`).
public struct Surface: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// How evdev input is turned into pointer coordinates.
///
/// Units: without a surface, positions are **raw device units** exactly as the device reports them
/// (ABS_MT_POSITION_X/Y or ABS_X/Y, not offset by the axis minimum), so outputs can be checked by hand
/// against a recording and no range is needed. With `surface`, each axis range [min, max] is mapped
/// linearly onto [0, width] and [0, height] (min → 0, max → width), which needs the ranges: from the
/// file's description (evemu `A:`, libinput `absinfo`, live EVIOCGABS) or from `axes`.
///
/// Relative pointers (mice): the position starts at the surface centre and is clamped to the surface;
/// without a surface it starts at (0, 0), unclamped, in counts. One count = one output unit.
public struct EventFileOptions: Sendable, Equatable {
    public var surface: Surface?
    /// Explicit axis ranges by ABS code, for sources that do not describe the device (raw files,
    /// pipes). They take precedence over ranges found in the file.
    public var axes: [UInt16: AbsInfo]

    public init(surface: Surface? = nil, axes: [UInt16: AbsInfo] = [:]) {
        self.surface = surface
        self.axes = axes
    }

    /// `--surface WxH` as a tuple.
    public init(surface: (Double, Double)?, axes: [UInt16: AbsInfo] = [:]) {
        self.init(surface: surface.map { Surface(width: $0.0, height: $0.1) }, axes: axes)
    }

    /// Convenience: the same X/Y range for both the multi-touch and single-touch axes.
    public static func ranges(x: ClosedRange<Int32>, y: ClosedRange<Int32>, resolution: Int32 = 0) -> [UInt16: AbsInfo] {
        let ax = AbsInfo(minimum: x.lowerBound, maximum: x.upperBound, resolution: resolution)
        let ay = AbsInfo(minimum: y.lowerBound, maximum: y.upperBound, resolution: resolution)
        return [ABS.X: ax, ABS.Y: ay, ABS.MT_POSITION_X: ax, ABS.MT_POSITION_Y: ay]
    }

    /// Parses `WxH` (e.g. `1920x1080`); nil when malformed or not positive.
    public static func parseSurface(_ text: String) -> Surface? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
            return nil
        }
        return Surface(width: w, height: h)
    }
}
