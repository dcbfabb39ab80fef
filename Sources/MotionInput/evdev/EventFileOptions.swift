import Foundation

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
    /// `--surface mm`: positions in millimetres from the axis minimum, from each axis's resolution
    /// (units/mm), so a threshold means the same on every device. Takes the place of `surface`.
    public var millimetres = false
    /// The command line's default: millimetres when the device reports a resolution on both axes
    /// (so the same thresholds mean the same distance on every such pad), raw units otherwise (no
    /// resolution, JSON Lines). `surface` and `millimetres` take its place when given.
    public var millimetresWhenKnown = false

    /// What the command line uses when no `--surface` is given: `millimetresWhenKnown`.
    public static var desktopDefault: EventFileOptions {
        var options = EventFileOptions()
        options.millimetresWhenKnown = true
        return options
    }

    public init(surface: Surface? = nil, axes: [UInt16: AbsInfo] = [:]) {
        self.surface = surface
        self.axes = axes
    }

    /// The surface positions are mapped onto for `device` (whose explicit `axes` are merged in):
    /// `surface`, or with `millimetres` the device's physical size, nil when an axis lacks a
    /// resolution or a range.
    public func resolvedSurface(for device: DeviceDescription) -> Surface? {
        guard millimetres || (millimetresWhenKnown && surface == nil) else { return surface }
        let a = device.absinfo.merging(axes) { $1 }
        guard let x = a[ABS.MT_POSITION_X] ?? a[ABS.X], let y = a[ABS.MT_POSITION_Y] ?? a[ABS.Y],
              x.resolution > 0, y.resolution > 0, x.maximum > x.minimum, y.maximum > y.minimum else { return nil }
        return Surface(width: (Double(x.maximum) - Double(x.minimum)) / Double(x.resolution),
                       height: (Double(y.maximum) - Double(y.minimum)) / Double(y.resolution))
    }

    /// Why positions of `device` cannot be mapped onto the surface, said for users: an axis whose
    /// minimum equals (or exceeds) its maximum, or (`millimetres`) no resolution.
    public func mappingProblem(for device: DeviceDescription) -> String? {
        guard surface != nil || millimetres else { return nil }
        let a = device.absinfo.merging(axes) { $1 }
        for (name, code, fallback) in [("X", ABS.MT_POSITION_X, ABS.X), ("Y", ABS.MT_POSITION_Y, ABS.Y)] {
            let axis = a[code] != nil ? (code == ABS.MT_POSITION_X ? "ABS_MT_POSITION_X" : "ABS_MT_POSITION_Y") : (name == "X" ? "ABS_X" : "ABS_Y")
            // A missing range is said by the decoder, which knows which axes the input uses.
            guard let info = a[code] ?? a[fallback] else { return nil }
            if info.maximum == info.minimum {
                return "the \(name) axis (\(axis)) has minimum = maximum = \(info.minimum): an empty range cannot be mapped onto a surface (pass --axes XMIN:XMAX,YMIN:YMAX)"
            }
            if info.maximum < info.minimum {
                return "the \(name) axis (\(axis)) has minimum \(info.minimum) above maximum \(info.maximum) (pass --axes XMIN:XMAX,YMIN:YMAX)"
            }
            if millimetres && info.resolution <= 0 {
                return "the \(name) axis (\(axis)) reports no resolution, so --surface mm cannot give millimetres (use --surface WIDTHxHEIGHT)"
            }
        }
        return nil
    }

    /// Parses `--axes XMIN:XMAX[:XRES],YMIN:YMAX[:YRES]` (integers, e.g. `0:4095,0:4095`, or
    /// `0:1200:12,0:800:12`) into ranges for both the multi-touch and single-touch axes. A
    /// resolution is in units per millimetre, as the kernel's: given on both axes, positions are
    /// millimetres by default, as on a device that reports its own. The error says what is wrong.
    public static func parseAxes(_ text: String) -> Result<[UInt16: AbsInfo], AxesError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .failure(AxesError("--axes must be XMIN:XMAX[:XRES],YMIN:YMAX[:YRES], e.g. 0:4095,0:4095 or 0:1200:12,0:800:12")) }
        var axes: [AbsInfo] = []
        for (name, part) in zip(["X", "Y"], parts) {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false).map { Int32($0.trimmingCharacters(in: .whitespaces)) }
            guard fields.count == 2 || fields.count == 3, let low = fields[0], let high = fields[1] else {
                return .failure(AxesError("--axes: the \(name) range '\(part)' must be MIN:MAX or MIN:MAX:RES with integers, e.g. 0:4095 or 0:1200:12"))
            }
            guard low < high else {
                return .failure(AxesError(low == high
                    ? "--axes: the \(name) range has minimum = maximum (\(low)); it must be wider than one value"
                    : "--axes: the \(name) minimum \(low) is above its maximum \(high)"))
            }
            var resolution: Int32 = 0
            if fields.count == 3 {
                guard let r = fields[2], r > 0 else {
                    return .failure(AxesError("--axes: the \(name) resolution in '\(part)' must be a whole number of units per millimetre above 0, e.g. 0:1200:12"))
                }
                resolution = r
            }
            axes.append(AbsInfo(minimum: low, maximum: high, resolution: resolution))
        }
        return .success([ABS.X: axes[0], ABS.Y: axes[1], ABS.MT_POSITION_X: axes[0], ABS.MT_POSITION_Y: axes[1]])
    }

    /// What to say once when `device` runs in raw units by default (no `--surface`, no
    /// resolution known): a threshold in millimetres then means device units, silently. Nil when
    /// positions are millimetres or a surface, or the device is a mouse (counts either way).
    public func rawUnitsNote(for device: DeviceDescription) -> String? {
        guard millimetresWhenKnown, surface == nil, !millimetres, resolvedSurface(for: device) == nil,
              !device.has(type: EV.REL, code: REL.X) else { return nil }
        return "positions are in raw device units (no resolution known, so not millimetres): give --axes XMIN:XMAX:XRES,YMIN:YMAX:YRES with XRES, YRES in units per mm (e.g. 0:1200:12,0:800:12), or --surface raw to say you mean raw units"
    }

    /// What `parseAxes` found wrong.
    public struct AxesError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
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

    /// Parses `--surface`: `WxH` (e.g. `1920x1080`), `mm`, `raw` (device units, whatever the
    /// device reports) or `auto` (the default: `millimetresWhenKnown`); nil when malformed or not positive.
    public static func parseSurfaceOption(_ text: String) -> EventFileOptions? {
        var options = EventFileOptions()
        switch text.lowercased() {
        case "mm":
            options.millimetres = true
            return options
        case "raw":
            return options
        case "auto":
            return desktopDefault
        default:
            break
        }
        guard let surface = parseSurface(text) else { return nil }
        options.surface = surface
        return options
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
