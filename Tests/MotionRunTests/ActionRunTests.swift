import Foundation
import Testing
import MotionActions
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionLua
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

private func motionscript(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try runMotionscript(arguments)
}

private func events(at path: String) -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return InputEvent.decode(records: [UInt8](data)).map(\.description)
}

/// Actions through the command and the host: performed live or with --act, never otherwise,
/// and held keys released at the end, on reload and on Ctrl-C.
@Suite(.timeLimit(.minutes(5))) struct ActionRunTests {
    let chordScript = """
        motion.gesture(motion.tap{}):subscribe(function(g)
          if g.state == "recognized" then motion.keys("ctrl+alt+Right") end
        end)
        """
    let tapEvents = """
        {"t":0.5,"id":1,"phase":"down","x":10,"y":10}
        {"t":0.625,"id":1,"phase":"up","x":10,"y":10}

        """

    @Test func aReplayPrintsActionsAndPerformsThemOnlyWithAct() throws {
        let folder = makeTemporaryFolder("act")
        let script = writeFile(chordScript, "chord.lua", in: folder)
        let input = writeFile(tapEvents, "tap.events.jsonl", in: folder)
        let device = folder.appendingPathComponent("uinput.raw").path
        let replay = try motionscript(["run", script, "--events", input, "--uinput", device])
        #expect(replay.status == 0)
        #expect(replay.stdout == #"{"t":0.125,"action":"keys","keys":"ctrl+alt+Right"}"# + "\n")
        #expect(!FileManager.default.fileExists(atPath: device))
        let acted = try motionscript(["run", script, "--events", input, "--uinput", device, "--act"])
        #expect(acted.stdout == replay.stdout)
        #expect(events(at: device) == [
            "KEY_LEFTCTRL 1", "KEY_LEFTALT 1", "KEY_RIGHT 1", "SYN", "KEY_RIGHT 0", "KEY_LEFTALT 0", "KEY_LEFTCTRL 0", "SYN",
        ])
    }

    @Test func actAndDryRunTogetherAreBadUsage() throws {
        let script = writeFile("", "empty.lua", in: makeTemporaryFolder("act"))
        let result = try motionscript(["run", script, "--act", "--dry-run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("use --act or --dry-run, not both"))
        let sandboxed = try motionscript(["run", script, "--act", "--sandbox"])
        #expect(sandboxed.status == 2)
        #expect(sandboxed.stderr.contains("--act performs actions, which a sandboxed script may not"))
    }

    @Test func aSandboxedLiveRunOnlyPrintsItsActions() throws {
        let folder = makeTemporaryFolder("act")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let device = folder.appendingPathComponent("uinput.raw").path
        let script = writeFile(#"motion.keys("super"); motion.exec{"true"}"#, "super.lua", in: folder)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            close(fd)
        }
        writer.start()
        let result = try motionscript(["run", script, "--device", fifo, "--uinput", device, "--sandbox"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"t":0,"action":"keys","keys":"super"}"#))
        #expect(!FileManager.default.fileExists(atPath: device))  // nothing typed (nor launched: one switch)
    }

    @Test func aChildsOutputGoesToStderrNeverIntoTheJSONLines() throws {
        let script = writeFile("""
            motion.exec("echo child says hi; echo child complains >&2; exit 4")
            motion.emit("after", 1)
            """, "exec.lua", in: makeTemporaryFolder("act"))
        let result = try motionscript(["run", script, "--act"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"t":0,"action":"exec","argv":["sh","-c","echo child says hi; echo child complains >&2; exit 4"]}"# + "\n"
                + #"{"t":0,"name":"after","value":1}"# + "\n")
        #expect(result.stderr.contains("child says hi\n"))
        #expect(result.stderr.contains("child complains\n"))
    }

    @Test func aReloadReleasesWhatTheOldVersionHeld() throws {
        let folder = makeTemporaryFolder("act")
        let script = writeFile(#"motion.keyDown("alt")"#, "hold.lua", in: folder)
        let sink = RecordingSink()
        var options = RunOptions(scriptPath: script)
        options.actions = ActionHost(performs: true, device: sink)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(options, output: output)
        defer { pipeline.close() }
        _ = try pipeline.reload().get()
        writeFile(#"motion.keyDown("shift")"#, "hold.lua", in: folder)
        _ = try pipeline.reload().get()
        // The new version loads before the old one is let go (a version that fails to load
        // leaves the old one running): its setup ran first.
        #expect(sink.batches == [[.key(56, 1), .synReport], [.key(42, 1), .synReport], [.key(56, 0), .synReport]])
        #expect(output.lines.sorted() == [
            #"{"t":0,"action":"keyDown","key":"alt"}"#,
            #"{"t":0,"action":"keyDown","key":"shift"}"#,
            #"{"t":0,"action":"keyUp","key":"alt","auto":true}"#,
        ])
        #expect(pipeline.runtime?.actions.host.performs == true)
    }

    @Test func ctrlCOnALiveRunReleasesHeldKeys() throws {
        let folder = makeTemporaryFolder("act")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let device = folder.appendingPathComponent("uinput.raw").path
        let stdoutPath = folder.appendingPathComponent("stdout").path
        let script = writeFile(#"motion.keyDown("alt"); motion.mouse.button("left", "down")"#, "hold.lua", in: folder)
        let pid = try spawnWithSignalsUnblocked(motionscriptBinary, ["run", script, "--device", fifo, "--uinput", device],
                                                stdout: stdoutPath)
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)  // the live run opens the device first
        defer { close(writer) }
        // Wait (a hang guard) until the script's setup performed its actions, then Ctrl-C.
        for _ in 0..<1000 where events(at: device).count < 4 { usleep(10_000) }
        kill(pid, SIGINT)
        let status = waitWithHangGuard(pid)
        #expect(status == 0)
        let stdout = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
        #expect(stdout.split(separator: "\n").suffix(2) == [
            #"{"t":0,"action":"mouse","button":"left","press":"up","auto":true}"#,
            #"{"t":0,"action":"keyUp","key":"alt","auto":true}"#,
        ])
        #expect(events(at: device) == ["KEY_LEFTALT 1", "SYN", "BTN_LEFT 1", "SYN", "BTN_LEFT 0", "KEY_LEFTALT 0", "SYN"])
    }

    @Test func dryRunKeepsALiveRunOffTheDesktop() throws {
        let folder = makeTemporaryFolder("act")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let device = folder.appendingPathComponent("uinput.raw").path
        let script = writeFile(#"motion.keys("super")"#, "super.lua", in: folder)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            close(fd)
        }
        writer.start()
        let result = try motionscript(["run", script, "--device", fifo, "--uinput", device, "--dry-run"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"t":0,"action":"keys","keys":"super"}"# + "\n")
        #expect(!FileManager.default.fileExists(atPath: device))
    }
}

/// Starts `path` with no signal blocked (test runner threads block some, and a child inherits
/// the mask), stdout into a file and stderr to /dev/null.
private func spawnWithSignalsUnblocked(_ path: String, _ arguments: [String], stdout: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
    return pid
}

/// The exit status, or -1 after killing a process still running 20 s later (a hang guard).
private func waitWithHangGuard(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    for _ in 0..<2000 {
        if waitpid(pid, &status, WNOHANG) == pid { return status & 0x7f == 0 ? (status >> 8) & 0xff : -1 }
        usleep(10_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
    return -1
}

/// The desktop examples' scenarios pin their actions; a changed binding is a failed scenario.
@Suite(.timeLimit(.minutes(5))) struct DesktopExampleTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theDesktopConfigurationTypesWhatItsScenarioExpects() throws {
        let output = CollectedOutput()
        let scenarios = root.appendingPathComponent("examples/scenarios")
        try Runner.run(RunOptions(scriptPath: root.appendingPathComponent("examples/desktop.lua").path,
                                  eventsPath: scenarios.appendingPathComponent("desktop.events.jsonl").path), output: output)
        // Checked by hand against the session: swipe left (3), swipe up (3), swipe up (4, the
        // fourth finger 12 ms late), pinch out ×2, pinch in ×0.4, 2-finger tap, 1-finger tap
        // (nothing), 3-finger hold from t=6 (began at 6.6).
        #expect(output.lines == [
            #"{"t":0.22,"action":"keys","keys":"ctrl+alt+Right"}"#,
            #"{"t":1.22,"action":"keys","keys":"ctrl+alt+Down"}"#,
            #"{"t":2.22,"action":"exec","argv":["gnome-terminal"]}"#,
            #"{"t":3.3,"action":"keys","keys":"ctrl+plus"}"#,
            #"{"t":4.3,"action":"keys","keys":"ctrl+minus"}"#,
            #"{"t":5.09,"action":"mouse","button":"right","press":"click"}"#,
            #"{"t":6.6,"action":"exec","argv":["rofi","-show","window"]}"#,
        ])
    }

    @Test func aScenarioFailsWhenTheConfigurationTypesSomethingElse() throws {
        let folder = makeTemporaryFolder("desktop")
        let scenarios = root.appendingPathComponent("examples/scenarios")
        let source = try String(contentsOf: root.appendingPathComponent("examples/desktop.lua"), encoding: .utf8)
        writeFile(source.replacingOccurrences(of: #"left = "ctrl+alt+Right""#, with: #"left = "super+Right""#), "desktop.lua", in: folder)
        for file in ["desktop.events.jsonl", "desktop.expected.jsonl"] {
            writeFile(try String(contentsOf: scenarios.appendingPathComponent(file), encoding: .utf8), file, in: folder)
        }
        let report = try ScenarioBatch(paths: [folder.path], options: ScenarioOptions(workerExecutable: motionscriptBinary)).run()
        #expect(report.lines.last == "0 passed, 1 failed")
        #expect(report.results.first?.failureMessage?.contains("super+Right") == true)
    }
}
