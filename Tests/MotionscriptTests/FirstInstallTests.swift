import Foundation
import Testing
import MotionTestSupport

/// A first install as a desktop user does it (README "Install", docs/daemon.md): no config
/// folder yet, the service's next steps, the autostart entry for sessions systemd does not start.
@Suite struct FirstInstallTests {
    /// The unit's `daemon` (no folder argument) on an account without ~/.config/motionscript:
    /// it makes the folder and runs, rather than exiting 2 and restarting in a loop.
    @Test func theDaemonMakesItsMissingDefaultFolderAndRuns() throws {
        let home = makeTemporaryFolder("fresh")
        let config = home.appendingPathComponent("config").path
        let r = try runMotionscript(["daemon", "--events", "examples/drag.events.jsonl"],
                                    environment: ["XDG_CONFIG_HOME": config, "HOME": home.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: config + "/motionscript", isDirectory: &isFolder) && isFolder.boolValue)
        let mode = try FileManager.default.attributesOfItem(atPath: config + "/motionscript")[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(r.stderr.hasPrefix("motionscript: made the config folder \(config)/motionscript (empty): put plugins there, e.g. cp /usr/"), "\(r.stderr)")
        // Made once: the next start says nothing.
        let again = try runMotionscript(["daemon", "--events", "examples/drag.events.jsonl"],
                                        environment: ["XDG_CONFIG_HOME": config, "HOME": home.path])
        #expect(again.status == 0)
        #expect(again.stderr == "")
        // A folder named on the command line is never made: a typo stays an error.
        let named = try runMotionscript(["daemon", home.path + "/typo", "--events", "examples/drag.events.jsonl"])
        #expect(named.status == 2)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/typo"))
    }

    @Test func checkWithoutAConfigFolderSaysWhatToDoAndPasses() throws {
        let home = makeTemporaryFolder("fresh")
        let config = home.appendingPathComponent("config").path
        let r = try runMotionscript(["check"], environment: ["XDG_CONFIG_HOME": config, "HOME": home.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("motionscript: no config folder yet (\(config)/motionscript): nothing to check. Put plugins there, e.g. mkdir -p \(config)/motionscript && cp /usr/") == true, "\(r.stderr)")
        #expect(lines.last == "motionscript: checked 0 plugins: 0 errors, 0 warnings")
        // A path named is still checked for: missing, it is a usage error.
        #expect(try runMotionscript(["check", config + "/nothing"]).status == 2)
    }

    /// Every next step `init --service` prints runs on a fresh account: the folder made before
    /// `cp` copies into it, the session's variables (SWAYSOCK and HYPRLAND_INSTANCE_SIGNATURE
    /// pick the focus provider) imported.
    @Test func initServiceNextStepsWorkOnAFreshAccount() throws {
        let home = makeTemporaryFolder("fresh")
        let unit = home.appendingPathComponent("unit/motionscript.service").path
        let r = try runMotionscript(["init", "--service", "--service-file", unit])
        #expect(r.status == 0, "\(r.stderr)")
        let steps = r.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(steps.count == 5, "\(r.stderr)")
        #expect(steps[1].hasPrefix("next: mkdir -p ~/.config/motionscript && cp /usr/"))
        #expect(steps[1].hasSuffix("/examples/desktop.lua ~/.config/motionscript/"))
        #expect(steps[2] == "motionscript check")
        #expect(steps[3] == "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK HYPRLAND_INSTANCE_SIGNATURE XDG_CURRENT_DESKTOP")
        // The first step, on a fresh account (HOME replaced by the temporary folder), with the
        // examples of this tree standing in for the installed ones.
        let copy = String(steps[1].dropFirst("next: ".count))
            .replacingOccurrences(of: #"/usr/[^ ]*/examples"#, with: repositoryRoot.path + "/examples", options: .regularExpression)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", copy]
        shell.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: home.path + "/.config/motionscript/desktop.lua"))
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("#   systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK HYPRLAND_INSTANCE_SIGNATURE XDG_CURRENT_DESKTOP\n"))
        #expect(text.contains("#   systemctl --user start motionscript\n"))
    }

    /// `init --autostart`: an XDG autostart entry for sessions systemd does not start, which
    /// starts the service when there is one and the daemon itself otherwise.
    @Test func initAutostartWritesAnEntryThatStartsTheServiceOrTheDaemon() throws {
        let home = makeTemporaryFolder("fresh")
        let entry = home.appendingPathComponent("autostart/motionscript.desktop").path
        let r = try runMotionscript(["init", "--autostart", "--autostart-file", entry])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("motionscript: wrote \(entry)\n"))
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "[Desktop Entry]")
        #expect(lines.contains("Type=Application"))
        #expect(lines.contains("Exec=sh -c \"systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK HYPRLAND_INSTANCE_SIGNATURE XDG_CURRENT_DESKTOP 2>/dev/null && systemctl --user start motionscript 2>/dev/null || exec \(URL(fileURLWithPath: motionscriptBinary).resolvingSymlinksInPath().path) daemon\""), "\(text)")
        // Never over an existing entry; and the two kinds are one at a time.
        #expect(try runMotionscript(["init", "--autostart", "--autostart-file", entry]).status == 2)
        #expect(try runMotionscript(["init", "--service", "--autostart"]).status == 2)
    }

    /// No /dev/uinput access yet (the usual state right after installing): the daemon runs; a
    /// plugin that only launches commands works, a key action is its plugin's error.
    @Test func theDaemonRunsWithoutTheVirtualDeviceUntilAKeyNeedsIt() throws {
        let folder = makeTemporaryFolder("nouinput")
        let started = folder.appendingPathComponent("started").path
        writeFile(#"motion.pointers():subscribe(function(p) if p.phase == "down" then motion.exec{"touch", "\#(started)"} end end)"#, "exec.lua", in: folder)
        writeFile(#"motion.pointers():subscribe(function(p) if p.phase == "down" then motion.keys("ctrl+t") end end)"#, "keys.lua", in: folder)
        let events = writeFile("""
            {"t":0,"id":1,"phase":"down","x":1,"y":1}
            {"t":0.1,"id":1,"phase":"up","x":1,"y":1}
            {"t":1,"id":2,"phase":"down","x":1,"y":1}
            {"t":1.1,"id":2,"phase":"up","x":1,"y":1}
            """, "e.jsonl", in: folder)
        let uinput = folder.path + "/no-such-folder/uinput"
        let r = try runMotionscript(["daemon", folder.path, "--events", events, "--act", "--uinput", uinput])
        #expect(r.status == 0, "\(r.stderr)")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: started) { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: started))
        #expect(r.stdout.contains(#"{"t":1,"plugin":"exec","action":"exec","argv":["touch",""#))
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("keys: error: ") }
        #expect(errors.count == 2, "\(r.stderr)")
        // Tried at start (the desktop should have the device before the first gesture), said
        // there with what to do; each key action tries again and says only that it failed.
        #expect(r.stderr.contains("motionscript: warning: no virtual keyboard and mouse yet (each key or mouse action tries again): cannot open \(uinput) for the virtual keyboard and mouse: No such file or directory"), "\(r.stderr)")
        #expect(errors.allSatisfy { $0.hasSuffix("motion.keys: cannot open \(uinput) for the virtual keyboard and mouse: No such file or directory (as said when it first failed; see there, or docs/desktop.md)") }, "\(r.stderr)")
    }

    /// An autostart entry launched twice (a session restarted, the entry and the service both):
    /// the second daemon finds the socket taken before it makes a virtual keyboard and mouse
    /// (the desktop would see one appear and go) and says only why it ends, with exit 1. Was: the
    /// device made first, and without /dev/uinput access a warning about it before the reason.
    @Test func aSecondDaemonSaysOnlyThatAnotherServesTheSocket() throws {
        let folder = makeTemporaryFolder("second")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let control = "/tmp/ms-second-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(control) }
        let first = Process()
        first.executableURL = URL(fileURLWithPath: motionscriptBinary)
        first.arguments = ["daemon", folder.path, "--device", fifo, "--socket", control, "--dry-run"]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // A device that sends nothing (read-write: opening it does not wait for the daemon).
        let device = open(fifo, O_RDWR | O_CLOEXEC)
        defer { close(device) }
        var answered = false
        for _ in 0..<500 where !answered {
            answered = try runMotionscript(["ctl", "--socket", control, "status"]).status == 0
            if !answered { usleep(10_000) }
        }
        #expect(answered)
        let uinput = folder.path + "/no-such-folder/uinput"
        let second = try runMotionscript(["daemon", folder.path, "--device", fifo, "--socket", control, "--uinput", uinput])
        _ = try runMotionscript(["ctl", "--socket", control, "stop"])
        first.waitUntilExit()
        #expect(second.status == 1)
        #expect(second.stderr == "error: another motionscript daemon (process \(first.processIdentifier)) already serves \(control); stop it first (motionscript ctl --socket \(control) stop) or choose another --socket\n",
                "\(second.stderr)")
    }
}

