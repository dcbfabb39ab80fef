/// ArgumentParser keeps the last value of an option given twice; for options that take one
/// value that silently drops the first (`--events a --events b` read only b). Only `--device`
/// of `run`, `daemon` and `record` repeats (one device each); any other option given twice is a
/// usage error.
enum RepeatedOptions {
    /// Options that take several values, by subcommand.
    static let repeatable: [String: Set<String>] = ["run": ["--device"], "daemon": ["--device"], "record": ["--device"]]

    /// The message for the first option given twice in `arguments` (the subcommand first), or nil.
    static func problem(in arguments: [String]) -> String? {
        let repeatable = arguments.first.flatMap { Self.repeatable[$0] } ?? []
        var seen: Set<String> = []
        for argument in arguments {
            if argument == "--" { break }  // what follows belongs to the script
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil else { continue }
            let name = String(argument.split(separator: "=", maxSplits: 1)[0])
            if repeatable.contains(name) { continue }
            if !seen.insert(name).inserted {
                return "\(name) was given twice; it takes one value" + (repeatable.isEmpty ? "" : " (only \(repeatable.sorted().joined(separator: ", ")) may repeat)")
            }
        }
        return nil
    }
}
