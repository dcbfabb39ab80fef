import Foundation
import Testing
import MotionActions
import MotionPluginHost
import MotionRun
import MotionLua
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Fails every write, as a device that cannot be opened does.
private final class FailingSink: InputEventSink {
    var attempts = 0
    func write(_ events: [InputEvent]) throws {
        attempts += 1
        throw ActionError("cannot open /dev/uinput")
    }
}

/// The action hub: sessions of one host share the device and count holds across sessions;
/// the device is never a file created at /dev/uinput; a FIFO as --uinput neither blocks nor
/// kills the process; exec refuses what a command line cannot carry.
@Suite(.timeLimit(.minutes(5))) struct ActionHubTests {
    private func runtime(_ source: String, host: ActionHost, output: CollectedOutput) throws -> LuaRuntime {
        let folder = makeTemporaryFolder("hub")
        let runtime = try LuaRuntime(scriptPath: writeFile(source, "s.lua", in: folder), output: output)
        runtime.actions = ActionSession(host: host)
        return runtime
    }

    /// A reload: the new version holds alt, then the old version closes (releasing its alt):
    /// alt stays down until the new version lets go (before, the old version's release undid
    /// the new version's hold).
    @Test func anOldVersionsReleaseDoesNotUndoTheNewVersionsHold() throws {
        let sink = RecordingSink()
        let host = ActionHost(performs: true, device: sink, launcher: ProcessLauncher(report: { _ in }))
        let output = CollectedOutput()
        let old = try runtime(#"motion.keyDown("alt")"#, host: host, output: output)
        try old.load()
        let new = try runtime(#"motion.keyDown("alt")"#, host: host, output: output)
        try new.load()
        old.close()
        #expect(sink.events.map(\.description) == ["KEY_LEFTALT 1", "SYN"])
        #expect(host.holds.count(56) == 1)
        new.close()
        #expect(sink.events.map(\.description) == ["KEY_LEFTALT 1", "SYN", "KEY_LEFTALT 0", "SYN"])
        #expect(output.lines.filter { $0.contains("keyUp") } == [
            #"{"t":0,"action":"keyUp","key":"alt","auto":true}"#, #"{"t":0,"action":"keyUp","key":"alt","auto":true}"#,
        ])
    }

    /// A keyDown whose device cannot be written holds nothing: no `"auto":true` keyUp line
    /// (before: one for KEY_LEFTALT) and no second attempt on the device at the end.
    @Test func aFailedKeyDownLeavesNoPhantomRelease() throws {
        let sink = FailingSink()
        let host = ActionHost(performs: true, device: sink, launcher: ProcessLauncher(report: { _ in }))
        let output = CollectedOutput()
        let script = try runtime(#"motion.keyDown("alt")"#, host: host, output: output)
        #expect(throws: ScriptError.self) { try script.load() }
        script.close()
        #expect(output.lines == [])
        #expect(sink.attempts == 1)
    }

    /// motion.exec refuses an argument with a NUL byte (it would be cut in the command line
    /// while the action line shows it whole).
    @Test func execRefusesANulByte() throws {
        for source in [#"motion.exec{"echo", "a\0b"}"#, #"motion.exec("echo a\0b")"#] {
            let output = CollectedOutput()
            let script = try runtime(source, host: .outputOnly(), output: output)
            defer { script.close() }
            #expect { try script.load() } throws: { "\($0)".contains("contains a NUL byte") }
            #expect(output.lines == [])
        }
    }

    private let keyScript = """
        motion.gesture(motion.tap{}):subscribe(function(g)
          if g.state == "recognized" then motion.emit("tapped", 1); motion.keyDown("alt") end
        end)
        """
    private let tap = """
        {"t":0.5,"id":1,"phase":"down","x":10,"y":10}
        {"t":0.625,"id":1,"phase":"up","x":10,"y":10}

        """

    /// Runs the binary with a hang guard: killed after 20 s (status then 137 with SIGKILL).
    private func run(_ executable: String, _ arguments: [String], before: (() -> Void)? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        before?()
        let guardTimer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: guardTimer)
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guardTimer.cancel()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// As root with no uinput module, in a mount namespace of its own whose /dev is an empty
    /// tmpfs: `--act` is an error that says `modprobe uinput`, and no file appears at
    /// /dev/uinput (before: a regular file took every key, exit 0). It runs only as root (CI is
    /// root; elsewhere it is skipped, saying so), and as root a namespace that cannot be made is a
    /// failure, not a skip.
    @Test(.enabled(if: getuid() == 0, "runs only as root (CI is root): it mounts an empty /dev in a namespace of its own"))
    func noFileIsEverCreatedAtDevUinput() throws {
        let folder = makeTemporaryFolder("uinput")
        let script = writeFile(keyScript, "key.lua", in: folder), events = writeFile(tap, "tap.jsonl", in: folder)
        let probe = try run("/usr/bin/unshare", ["-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs tmpfs /dev"])
        try #require(probe.status == 0, "unshare could not make a mount namespace as root: \(probe.stderr)")
        let shell = #"mount -t tmpfs tmpfs /dev || exit 99; "$0" run "$1" --events "$2" --act; s=$?; [ -e /dev/uinput ] && echo CREATED; exit $s"#
        let r = try run("/usr/bin/unshare", ["-m", "--propagation", "private", "sh", "-c", shell, motionscriptBinary, script, events])
        #expect(r.status == 1)
        #expect(!r.stdout.contains("CREATED"))
        #expect(r.stderr.contains("sudo modprobe uinput"))
    }

    /// `--uinput FIFO` with no reader: an error at the first key (before: blocked in open for
    /// ever, deaf to SIGTERM).
    @Test func aFifoWithoutAReaderIsAnErrorNotAWait() throws {
        let folder = makeTemporaryFolder("uinput")
        let script = writeFile(keyScript, "key.lua", in: folder), events = writeFile(tap, "tap.jsonl", in: folder)
        let fifo = folder.appendingPathComponent("keys").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try run(motionscriptBinary, ["run", script, "--events", events, "--act", "--uinput", fifo])
        #expect(r.status == 1)
        // (Runtime errors name the input time since the messages branch: "… at t=0.125 (tap.jsonl:2)".)
        #expect(r.stderr.contains("key.lua:2: motion.keyDown: cannot open \(fifo) for the virtual keyboard and mouse: it is a FIFO and nothing reads it at t=0.125 ("))
        #expect(r.stdout == #"{"t":0.125,"name":"tapped","value":1}"# + "\n")
    }

    /// `--uinput FIFO` whose reader goes away: the next write is an error (exit 1, the lines
    /// made so far on stdout), not a SIGPIPE death (exit 141, lines lost). The first tap's key
    /// reaches the reader (read back, so the order is known without sleeping); then the reader
    /// closes and the second tap's key has nowhere to go.
    @Test func aFifoWhoseReaderWentAwayIsAnErrorThatKeepsTheOutput() throws {
        let folder = makeTemporaryFolder("uinput")
        let script = writeFile("""
            motion.gesture(motion.tap{}):subscribe(function(g)
              if g.state == "recognized" then motion.emit("tapped", 1); motion.keys("a") end
            end)
            """, "key.lua", in: folder)
        let fifo = folder.appendingPathComponent("keys").path, events = folder.appendingPathComponent("events").path
        #expect(mkfifo(fifo, 0o600) == 0 && mkfifo(events, 0o600) == 0)
        // The FIFO's only reader is a child that takes the first chord and exits (see LoneReader
        // for why the test never holds a reader itself).
        let reader = try LoneReader(of: fifo, head: ["-c", "96"], copyingTo: folder.appendingPathComponent("chord").path)
        let r = try run(motionscriptBinary, ["run", script, "--events", events, "--act", "--uinput", fifo]) {
            let writer = open(events, O_WRONLY | O_CLOEXEC)
            func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
            send(#"{"t":0.5,"id":1,"phase":"down","x":10,"y":10}"# + "\n" + #"{"t":0.625,"id":1,"phase":"up","x":10,"y":10}"# + "\n")
            // Two frames more: the tap is decided once input time passes its deadline.
            send(#"{"t":2.5,"id":2,"phase":"down","x":10,"y":10}"# + "\n")
            // The first chord arrived whole: a press and a release batch, 4 records of 24 bytes;
            // the reader exited after them, so nothing reads the FIFO any more.
            #expect(reader.waitUntilGone().count == 96)
            send(#"{"t":2.625,"id":2,"phase":"up","x":10,"y":10}"# + "\n" + #"{"t":5,"id":3,"phase":"down","x":10,"y":10}"# + "\n")
            close(writer)
        }
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix(#"{"t":0.125,"name":"tapped","value":1}"# + "\n" + #"{"t":0.125,"action":"keys","keys":"a"}"# + "\n"))
        #expect(r.stdout.contains(#"{"t":2.125,"name":"tapped","value":1}"#))
        #expect(r.stderr.contains("nothing reads it any more"), "\(r.stderr)")
    }
}
