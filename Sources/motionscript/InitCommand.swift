import ArgumentParser
import Foundation
import MotionControl
import MotionDaemon
import MotionDesktop
import MotionPluginHost
import MotionRun
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

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

    @Flag(name: .customLong("gnome-extension"), help: "Instead: install the GNOME Shell extension that tells motionscript the focused application (~/.local/share/gnome-shell/extensions/motionscript-focus@motionscript).")
    var gnomeExtension = false

    @Flag(help: "Instead: write an XDG autostart entry that starts the daemon at login, for sessions systemd does not start (~/.config/autostart/motionscript.desktop).")
    var autostart = false

    @Option(name: .customLong("autostart-file"), help: ArgumentHelp("With --autostart: where to write the entry instead.", valueName: "path"))
    var autostartFile: String?

    func validate() throws {
        if [service, autostart, gnomeExtension].filter({ $0 }).count > 1 {
            throw ValidationError("use one of --service, --autostart and --gnome-extension")
        }
        if serviceFile != nil && !service { throw ValidationError("--service-file goes with --service") }
        if autostartFile != nil && !autostart { throw ValidationError("--autostart-file goes with --autostart") }
    }

    func run() throws {
        if service { return try writeService() }
        if gnomeExtension { return try writeGnomeExtension() }
        if autostart {
            try writeOnce(autostartFile ?? AutostartEntry.userPath, AutostartEntry.text(binary: ServiceUnit.currentExecutable))
            StandardError.write("next: at your next login the session starts the daemon (as the service when systemd has its unit); now: motionscript daemon &\n")
            return
        }
        do {
            let written = try Starter.write(into: directory)
            // stdout stays for JSON Lines: the summary is a diagnostic.
            StandardError.write("motionscript: wrote \(written.joined(separator: ", "))\n")
            StandardError.write("next: cd \(ShellQuote.quote(directory)) && motionscript run drag.lua --events drag.events.jsonl\n")
        } catch let error as StarterError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
    }

    /// The extension's files for the installed GNOME Shell (ES modules from 45 on), over an
    /// older version of them (they are motionscript's, not the user's).
    private func writeGnomeExtension() throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = GnomeExtension.userFolder(environment: environment)
        let major = Self.gnomeShellVersion().flatMap(GnomeExtension.shellMajorVersion(fromVersionOutput:))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in GnomeExtension.files(shellMajorVersion: major) {
                try file.text.write(toFile: folder + "/" + file.name, atomically: true, encoding: .utf8)
            }
        } catch {
            StandardError.write("error: cannot write \(folder): \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
        let kind = major.map { $0 >= 45 ? "GNOME Shell \($0): an ES module" : "GNOME Shell \($0)" }
            ?? "gnome-shell --version did not answer: written for GNOME Shell 45 and later"
        StandardError.write("motionscript: wrote \(folder) (\(kind))\n")
        StandardError.write("next: log out and in (GNOME Shell on Wayland finds new extensions at login), then: gnome-extensions enable \(GnomeExtension.uuid)\n")
    }

    /// `gnome-shell --version`'s output, nil when it cannot be run.
    private static func gnomeShellVersion() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gnome-shell", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// What to do after `init --service`, each line a command that works on a fresh account:
    /// the config folder made and an example copied into it (the daemon would make the folder,
    /// but `cp` needs it), the check, the session's environment for the unit, the service.
    static func serviceNextSteps(examples: String) -> String {
        """
        next: mkdir -p ~/.config/motionscript && cp \(examples)/desktop.lua ~/.config/motionscript/
              motionscript check
              systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK HYPRLAND_INSTANCE_SIGNATURE XDG_CURRENT_DESKTOP
              systemctl --user daemon-reload && systemctl --user enable --now motionscript

        """
    }

    /// The unit, never over an existing one (a user's edits stay).
    private func writeService() throws {
        try writeOnce(serviceFile ?? ServiceUnit.userPath, ServiceUnit.text(binary: ServiceUnit.currentExecutable))
        StandardError.write(Self.serviceNextSteps(examples: ConfigFolder.examplesFolder))
    }

    /// Writes `text` to `path` (its folder made), never over an existing file (a user's edits stay).
    private func writeOnce(_ path: String, _ text: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            StandardError.write("error: \(path) exists; remove it first to write a new one\n")
            throw ExitCode(2)
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            StandardError.write("error: cannot write \(path): \(error.localizedDescription)\n")
            throw ExitCode(2)
        }
        StandardError.write("motionscript: wrote \(path)\n")
    }
}
