import MotionInput

/// What a worker is asked to run: one scenario's script over its events, under its limits.
/// Sent as `key`, `value` pairs after the word `run`, so a new setting is one more pair.
struct ScenarioJob: Equatable {
    var script: String
    var events: String
    var timeout: Double
    var memoryLimit: Int
    var maxOutputLines: Int
    var maxOutputBytes: Int
    /// The restricted standard library (`test` without `--trusted`).
    var sandbox: Bool
    /// `test --surface/--axes` (a scenario's own declarations are read by the worker).
    var input: EventFileOptions
    /// The scenario's folder, absolute: the worker runs the job there (its working directory,
    /// so `./?.lua` of `require` and relative `io.open` paths mean the scenario's folder
    /// wherever `test` was started). `script` and `events` are relative to it then. Empty:
    /// where the worker is.
    var directory = ""
    /// `test --app NAME` (empty: none; a scenario's `-- app:` declaration wins).
    var app = ""

    init(script: String, events: String, options: ScenarioOptions) {
        self.script = script
        self.events = events
        timeout = options.timeout
        memoryLimit = options.memoryLimit
        maxOutputLines = options.maxOutputLines
        maxOutputBytes = options.maxOutputBytes
        sandbox = options.sandbox
        input = options.input
        app = options.app ?? ""
    }

    var fields: [String] {
        ["run", "script", script, "events", events, "timeout", "\(timeout)", "memory", "\(memoryLimit)",
         "lines", "\(maxOutputLines)", "bytes", "\(maxOutputBytes)", "sandbox", sandbox ? "1" : "0",
         "surface", Self.surfaceText(input), "axes", Self.axesText(input.axes), "dir", directory, "app", app]
    }

    init?(fields: [String]) {
        guard fields.first == "run", fields.count % 2 == 1 else { return nil }
        var values: [String: String] = [:]
        for index in stride(from: 1, to: fields.count, by: 2) { values[fields[index]] = fields[index + 1] }
        guard let script = values["script"], let events = values["events"],
              let timeout = values["timeout"].flatMap(Double.init), let memory = values["memory"].flatMap(Int.init),
              let lines = values["lines"].flatMap(Int.init), let bytes = values["bytes"].flatMap(Int.init),
              let sandbox = values["sandbox"], let surface = values["surface"], let axes = values["axes"],
              let input = Self.input(surface: surface, axes: axes) else { return nil }
        self.script = script
        self.events = events
        self.timeout = timeout
        memoryLimit = memory
        maxOutputLines = lines
        maxOutputBytes = bytes
        self.sandbox = sandbox == "1"
        self.input = input
        app = values["app"] ?? ""
        directory = values["dir"] ?? ""
    }

    /// Runs the job in `folder`: the paths become relative to it (`x.lua`, or `../config.lua`
    /// for a scenario that names a script elsewhere), as error messages then show them.
    mutating func run(in folder: String) {
        let base = ScenarioPaths.absolute(folder)
        directory = base
        script = ScenarioPaths.relative(ScenarioPaths.absolute(script), from: base)
        events = ScenarioPaths.relative(ScenarioPaths.absolute(events), from: base)
    }

    /// `WxH` (doubles print so they read back the same), `mm`, or empty.
    private static func surfaceText(_ input: EventFileOptions) -> String {
        if input.millimetres { return "mm" }
        if let surface = input.surface { return "\(surface.width)x\(surface.height)" }
        return input.millimetresWhenKnown ? "auto" : ""
    }

    /// `code:min:max:resolution` entries joined by `,`.
    private static func axesText(_ axes: [UInt16: AbsInfo]) -> String {
        axes.sorted { $0.key < $1.key }
            .map { "\($0.key):\($0.value.minimum):\($0.value.maximum):\($0.value.resolution)" }
            .joined(separator: ",")
    }

    private static func input(surface: String, axes: String) -> EventFileOptions? {
        var input = EventFileOptions()
        if !surface.isEmpty {
            guard let parsed = EventFileOptions.parseSurfaceOption(surface) else { return nil }
            input = parsed
        }
        for entry in axes.split(separator: ",") {
            let parts = entry.split(separator: ":")
            guard parts.count == 4, let code = UInt16(parts[0]), let min = Int32(parts[1]), let max = Int32(parts[2]),
                  let resolution = Int32(parts[3]) else { return nil }
            input.axes[code] = AbsInfo(minimum: min, maximum: max, resolution: resolution)
        }
        return input
    }
}

/// A worker's answer once a scenario ended: it ran to its end (its output was sent before, see
/// `WorkerMessage`), or why it did not.
enum ScenarioReply: Equatable {
    /// `notes`: what `test` says of the scenario on stderr whatever its outcome (the focused
    /// application was unknown where a recognizer's `apps =` was decided).
    case finished(notes: [String] = [])
    /// `kind`: syntax, runtime, timeout, memory, output (too much), input (bad events), other.
    case failed(kind: String, message: String, notes: [String] = [])

    var notes: [String] {
        switch self {
        case .finished(let notes), .failed(_, _, let notes): return notes
        }
    }

    var fields: [String] {
        switch self {
        case .finished(let notes): return ["finished"] + notes
        case let .failed(kind, message, notes): return ["failed", kind, message] + notes
        }
    }

    init?(fields: [String]) {
        switch fields.first {
        case "finished": self = .finished(notes: Array(fields.dropFirst()))
        case "failed" where fields.count >= 3: self = .failed(kind: fields[1], message: fields[2], notes: Array(fields.dropFirst(3)))
        default: return nil
        }
    }
}
