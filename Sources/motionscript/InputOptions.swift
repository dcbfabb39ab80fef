import ArgumentParser
import MotionInput

/// `--surface` and `--axes`, shared by run, test and record.
enum InputOptions {
    /// The input options they describe; a usage error that says what is wrong otherwise.
    static func parse(surface: String?, axes: String?) throws -> EventFileOptions {
        // No --surface: millimetres on devices that report a resolution, raw units otherwise.
        var options = EventFileOptions.desktopDefault
        if let surface {
            guard let parsed = EventFileOptions.parseSurfaceOption(surface) else {
                throw ValidationError("--surface must be WIDTHxHEIGHT with positive numbers (e.g. 1920x1080), mm, auto or raw, got \(surface)")
            }
            options = parsed
        }
        if let axes {
            switch EventFileOptions.parseAxes(axes) {
            case .success(let ranges): options.axes = ranges
            case .failure(let error): throw ValidationError(error.description)
            }
        }
        return options
    }
}

/// The input options `run` and `plot` share (`@OptionGroup`): a plot of a run reads its input
/// exactly as the run does.
struct InputOptionGroup: ParsableArguments {
    @Option(parsing: .unconditional, help: "Units of evdev positions: 'auto' (the default: millimetres where the device reports its resolution, raw units elsewhere), 'mm' (millimetres, required), 'raw' (device units), or WxH to map the axis ranges onto a surface, e.g. 1920x1080.")
    var surface: String?

    @Option(help: "Axis ranges XMIN:XMAX[:XRES],YMIN:YMAX[:YRES] for input without a device description (a pipe, raw evdev bytes), e.g. 0:4095,0:4095; a resolution in units per mm (0:1200:12,0:800:12) makes positions millimetres.")
    var axes: String?

    func validate() throws { _ = try parsed() }

    func parsed() throws -> EventFileOptions { try InputOptions.parse(surface: surface, axes: axes) }
}
