import ArgumentParser
import Foundation
import MotionHost
#if canImport(Glibc)
import Glibc
#endif

/// `motionscript init [DIR]`: a starter project (see `Starter`).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter: a script, its events, its expected output and editor set-up.",
        discussion: """
            Writes drag.lua, drag.events.jsonl, drag.expected.jsonl (a scenario: `motionscript test DIR` \
            passes), types/motion.lua (LuaLS definitions of the motion API) and .luarc.json (points \
            lua-language-server at them, Lua 5.4). Existing files are never overwritten.
            """
    )

    @Argument(help: "The folder to write into (created if missing).")
    var directory: String = "."

    func run() throws {
        do {
            let written = try Starter.write(into: directory)
            // stdout stays for JSON Lines: the summary is a diagnostic.
            fputs("motionscript: wrote \(written.joined(separator: ", "))\n", stderr)
            fputs("next: cd \(ShellQuote.quote(directory)) && motionscript run drag.lua --events drag.events.jsonl\n", stderr)
        } catch let error as StarterError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }
}
