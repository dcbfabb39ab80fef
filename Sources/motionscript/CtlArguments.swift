/// `ctl --socket PATH COMMAND …` as the usage reads: swift-argument-parser gives a parent's
/// options to no subcommand, so a `--socket` placed before the command is moved after it, where
/// each command's `CtlConnection` reads it.
enum CtlArguments {
    static func normalized(_ arguments: [String]) -> [String] {
        guard arguments.first == "ctl" else { return arguments }
        var rest = Array(arguments.dropFirst())
        var moved: [String] = []
        while let first = rest.first {
            if first == "--socket", rest.count >= 2 {
                moved += rest.prefix(2)
                rest.removeFirst(2)
            } else if first.hasPrefix("--socket=") {
                moved.append(rest.removeFirst())
            } else {
                break
            }
        }
        guard !moved.isEmpty, let command = rest.first else { return arguments }
        return ["ctl", command] + moved + rest.dropFirst()
    }
}
