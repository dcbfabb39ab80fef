import ArgumentParser
import Foundation
import MotionControl
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

    @Flag(help: "Instead: write the systemd user unit that runs `motionscript daemon` (~/.config/systemd/user/motionscript.service).")
    var service = false

    @Option(name: .customLong("service-file"), help: ArgumentHelp("With --service: where to write the unit instead.", valueName: "path"))
    var serviceFile: String?

    func run() throws {
        if service { return try writeService() }
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

    /// The unit, never over an existing one (a user's edits stay).
    private func writeService() throws {
        let path = serviceFile ?? ServiceUnit.userPath
        guard !FileManager.default.fileExists(atPath: path) else {
            fputs("error: \(path) exists; remove it first to write a new one\n", stderr)
            throw ExitCode(2)
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try ServiceUnit.text(binary: ServiceUnit.currentExecutable).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            fputs("error: cannot write \(path): \(error.localizedDescription)\n", stderr)
            throw ExitCode(2)
        }
        fputs("motionscript: wrote \(path)\n", stderr)
        fputs("next: motionscript check && systemctl --user daemon-reload && systemctl --user enable --now motionscript\n", stderr)
    }
}
