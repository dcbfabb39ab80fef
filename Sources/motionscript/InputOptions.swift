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
