import Foundation
import MotionInput

/// A scenario can declare the surface it runs on in the leading comment lines of its script, so
/// thresholds mean the same whatever device recorded its events:
///
///     -- surface: 1920x1080        (or: -- surface: mm | raw | auto)
///     -- axes: 0:4095,0:4095       (for raw events without a device description)
///     -- app: firefox              (the focused application for the whole run, as `--app`)
///     -- proxy: on                 (as `--proxy`: the decisions of the desktop's clone are output
///                                   lines; `-- proxy: 0.25` takes the device over at 0.25 s of
///                                   input time, as a grab asked for then)
///
/// Declarations override `test --surface/--axes/--app`. A malformed one is an error naming its line.
public enum ScenarioSurface {
    public struct DeclarationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `base` with the declarations of the script at `path` applied.
    public static func options(for path: String, base: EventFileOptions) throws -> EventFileOptions {
        var options = base
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return options }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#!") { continue }
            guard line.hasPrefix("--") else { break }  // declarations live in the leading comments
            let body = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
            if let value = declared("surface", in: body) {
                guard let parsed = EventFileOptions.parseSurfaceOption(value) else {
                    throw DeclarationError(description: "\(path):\(index + 1): surface must be WIDTHxHEIGHT (e.g. 1920x1080), mm, auto or raw")
                }
                options.surface = parsed.surface
                options.millimetres = parsed.millimetres
                options.millimetresWhenKnown = parsed.millimetresWhenKnown
            } else if let value = declared("axes", in: body) {
                switch EventFileOptions.parseAxes(value) {
                case .success(let axes): options.axes = axes
                case .failure(let error): throw DeclarationError(description: "\(path):\(index + 1): \(error.description.replacingOccurrences(of: "--axes", with: "axes"))")
                }
            }
        }
        return options
    }

    /// The `-- app: NAME` declaration of the script at `path`, if any.
    public static func app(for path: String) throws -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#!") { continue }
            guard line.hasPrefix("--") else { break }
            if let value = declared("app", in: line.dropFirst(2).trimmingCharacters(in: .whitespaces)) {
                guard !value.isEmpty else { throw DeclarationError(description: "\(path):\(index + 1): app needs a name") }
                return value
            }
        }
        return nil
    }

    /// The `-- proxy: on | SECONDS` declaration of the script at `path`: the input time the proxy
    /// takes the devices over at (0 for `on`), nil without one.
    public static func proxy(for path: String) throws -> Double? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#!") { continue }
            guard line.hasPrefix("--") else { break }
            if let value = declared("proxy", in: line.dropFirst(2).trimmingCharacters(in: .whitespaces)) {
                if value == "on" { return 0 }
                guard let from = Double(value), from >= 0, from.isFinite else {
                    throw DeclarationError(description: "\(path):\(index + 1): proxy must be 'on' or the input time (seconds) the proxy takes the devices over at")
                }
                return from
            }
        }
        return nil
    }

    private static func declared(_ key: String, in body: String) -> String? {
        guard body.lowercased().hasPrefix(key + ":") else { return nil }
        return body.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
    }
}
