/// `run SCRIPT -- ARGS` and `plot SCRIPT -- ARGS`: what follows `--` is the script's, taken
/// off the command line before swift-argument-parser sees it. The parser's handling of
/// terminator values is quadratic in their number (40,000 arguments took 39 s); a list cut
/// here costs nothing, and the parser still sees the `--` it expects.
protocol TakesScriptArguments {
    var scriptArguments: [String] { get set }
}

extension RunCommand: TakesScriptArguments {}
extension PlotCommand: TakesScriptArguments {}

enum ScriptArguments {
    /// Subcommands whose arguments after `--` belong to the script.
    static let commands: Set<String> = ["run", "plot"]

    /// The arguments for the parser (up to and including the first `--`) and the script's
    /// (after it), or nil when there is nothing to split off.
    static func split(_ arguments: [String]) -> (parsed: [String], script: [String])? {
        guard let first = arguments.first, commands.contains(first),
              let terminator = arguments.firstIndex(of: "--") else { return nil }
        return (Array(arguments[...terminator]), Array(arguments[(terminator + 1)...]))
    }
}
