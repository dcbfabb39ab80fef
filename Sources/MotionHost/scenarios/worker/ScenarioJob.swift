/// What a worker is asked to run: one scenario's script over its events, under its limits.
/// Sent as `key`, `value` pairs after the word `run`, so a new setting is one more pair.
struct ScenarioJob: Equatable {
    var script: String
    var events: String
    var timeout: Double
    var memoryLimit: Int
    var maxOutputLines: Int
    var maxOutputBytes: Int

    init(script: String, events: String, options: ScenarioOptions) {
        self.script = script
        self.events = events
        timeout = options.timeout
        memoryLimit = options.memoryLimit
        maxOutputLines = options.maxOutputLines
        maxOutputBytes = options.maxOutputBytes
    }

    var fields: [String] {
        ["run", "script", script, "events", events, "timeout", "\(timeout)", "memory", "\(memoryLimit)",
         "lines", "\(maxOutputLines)", "bytes", "\(maxOutputBytes)"]
    }

    init?(fields: [String]) {
        guard fields.first == "run", fields.count % 2 == 1 else { return nil }
        var values: [String: String] = [:]
        for index in stride(from: 1, to: fields.count, by: 2) { values[fields[index]] = fields[index + 1] }
        guard let script = values["script"], let events = values["events"],
              let timeout = values["timeout"].flatMap(Double.init), let memory = values["memory"].flatMap(Int.init),
              let lines = values["lines"].flatMap(Int.init), let bytes = values["bytes"].flatMap(Int.init) else { return nil }
        self.script = script
        self.events = events
        self.timeout = timeout
        memoryLimit = memory
        maxOutputLines = lines
        maxOutputBytes = bytes
    }
}

/// A worker's answer: the output lines, or why there are none.
enum ScenarioReply: Equatable {
    case lines([String])
    /// `kind`: syntax, runtime, timeout, memory, output (too much), input (bad events), other.
    case failed(kind: String, message: String)

    var fields: [String] {
        switch self {
        case .lines(let lines): return ["lines"] + lines
        case let .failed(kind, message): return ["failed", kind, message]
        }
    }

    init?(fields: [String]) {
        switch fields.first {
        case "lines": self = .lines(Array(fields.dropFirst()))
        case "failed" where fields.count == 3: self = .failed(kind: fields[1], message: fields[2])
        default: return nil
        }
    }
}
