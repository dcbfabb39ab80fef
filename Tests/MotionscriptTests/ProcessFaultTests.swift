import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

// What the process does under signals, failed writes and hostile scripts, through the real
// binary. Scripts announce that they reached a point by writing to a FIFO the test reads (no
// sleeping to guess); waits have generous limits that only guard against hangs.

/// The built binary (MOTIONSCRIPT_BINARY overrides it, e.g. to try an older build).
private var binary: String {
    if let path = ProcessInfo.processInfo.environment["MOTIONSCRIPT_BINARY"] { return path }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("motionscript").path),
          url.path != "/" {
        url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("motionscript").path
}

/// Seconds after which a test gives up on the process (a hang guard, not a measurement).
private let hangGuard = 60.0

/// A running `motionscript` whose stdout and stderr are pipes.
private final class Spawned {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private var pending = [UInt8]()

    /// `shell` wraps the command: `sh -c "<shell> exec \"$0\" \"$@\""` (e.g. "trap '' PIPE;").
    init(_ arguments: [String], shell: String? = nil, stdout: Any? = nil) throws {
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(shell) exec \"$0\" \"$@\"", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        // Close-on-exec, so no process forked meanwhile in this test process (a Lua test's
        // `os.execute`, say) keeps a copy of the read end: closing it must leave the pipe with no
        // reader.
        for pipe in [out, err] {
            for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
            }
        }
        process.standardOutput = stdout ?? out
        process.standardError = err
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The next line of stdout (without its newline), nil at end of output.
    func readLine() -> String? {
        let fd = out.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            pending += chunk[..<n]
        }
    }

    /// Closes the test's end of stdout: the next line the process writes meets a closed pipe.
    func closeStdout() { try? out.fileHandleForReading.close() }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits until the process sleeps in a kernel function whose name contains `wchan`
    /// (opening a FIFO: "wait_for_partner"; polling: "poll").
    func waitUntilBlocked(in wchan: String) {
        let start = Date()
        while Date().timeIntervalSince(start) < hangGuard {
            if (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8))?.contains(wchan) == true { return }
            usleep(1_000)
        }
    }

    /// Waits until the process took `signal` off its pending sets (a second one sent before
    /// that would merge with it).
    func waitUntilDelivered(_ signal: Int32) {
        let bit = UInt64(1) << UInt64(signal - 1)
        let start = Date()
        while Date().timeIntervalSince(start) < hangGuard {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return }
            let pending = status.split(separator: "\n").filter { $0.hasPrefix("SigPnd:") || $0.hasPrefix("ShdPnd:") }
                .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
            if pending.allSatisfy({ $0 & bit == 0 }) { return }
            usleep(1_000)
        }
    }

    struct Ended {
        /// The exit status, or the signal that ended it (`bySignal`).
        var status: Int32
        var bySignal: Bool
        var stdout: String
        var stderr: String
    }

    /// Waits for the end (killing the process if it outlives the hang guard) and collects the
    /// rest of its output.
    func finish(readStdout: Bool = true) -> Ended {
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < hangGuard { usleep(5_000) }
        let hung = process.isRunning
        if hung { kill(pid, SIGKILL) }
        process.waitUntilExit()
        var rest = ""
        if readStdout {
            rest = String(decoding: pending, as: UTF8.self)
            rest += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Ended(status: hung ? -1 : process.terminationStatus,
                     bySignal: process.terminationReason == .uncaughtSignal,
                     stdout: rest, stderr: hung ? "HUNG\n" + stderr : stderr)
    }
}

/// A folder with a FIFO named `ready` that scripts write to when they reach a point.
private struct Scene {
    let folder = makeTemporaryFolder("faults")
    var ready: String { folder.appendingPathComponent("ready").path }

    init() {
        precondition(mkfifo(folder.appendingPathComponent("ready").path, 0o600) == 0)
    }

    /// Lua that says it is ready (blocks until the test listens).
    var announce: String { "do local f = io.open('\(ready)', 'w') f:write('x') f:close() end" }

    func file(_ name: String, _ text: String) -> String { writeFile(text, name, in: folder) }

    func fifo(_ name: String) -> String {
        let path = folder.appendingPathComponent(name).path
        precondition(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Waits until a script announced itself; false if it never did (or the process ended).
    func waitUntilReady() -> Bool {
        let fd = open(ready, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var waited = 0.0
        while waited < hangGuard {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 {
                var byte: UInt8 = 0
                if read(fd, &byte, 1) == 1 { return true }
            }
            waited += 0.1
        }
        return false
    }
}

/// One protocol B frame: slot 0 at (x, y) with tracking id 1 (down on the first), SYN_REPORT.
private func touchFrame(usec: Int, x: Int32, y: Int32 = 100, first: Bool = false) -> [UInt8] {
    var bytes = [UInt8]()
    if first { bytes += inputEvent(usec: usec, 3, 0x2f, 0) + inputEvent(usec: usec, 3, 0x39, 1) }
    bytes += inputEvent(usec: usec, 3, 0x35, x) + inputEvent(usec: usec, 3, 0x36, y)
    return bytes + inputEvent(usec: usec, 0, 0, 0)
}

/// Opens a device FIFO for writing (blocks until the process opens it) and writes frames.
private final class DeviceWriter {
    let fd: Int32
    init(_ path: String) { fd = open(path, O_WRONLY | O_CLOEXEC) }
    func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
    func close() { Glibc.close(fd) }
}

@Suite(.timeLimit(.minutes(5))) struct StdoutStaysJSONLinesTests {
    /// io.write, io.stdout:write, print to io.stdout and a child's stdout all go to stderr.
    @Test func writesToStdoutFromLuaAndChildrenLandOnStderr() throws {
        let scene = Scene()
        let script = scene.file("noisy.lua", """
            motion.emit("a", 1)
            io.write("written\\n")
            io.stdout:write("stdout\\n")
            io.stdout:flush()
            os.execute("echo child")
            local p = io.popen("echo popen-read") p:read("a") p:close()
            motion.emit("b", 2)
            """)
        let r = try Spawned(["run", script]).finish()
        #expect(r.status == 0)
        #expect(r.stdout == #"{"t":0,"name":"a","value":1}"# + "\n" + #"{"t":0,"name":"b","value":2}"# + "\n")
        #expect(r.stderr.contains("written\n"))
        #expect(r.stderr.contains("stdout\n"))
        #expect(r.stderr.contains("child\n"))
    }

    /// `os.exit` ends the process through exit(3): the lines made before it are written.
    @Test func linesBeforeOsExitAreWritten() throws {
        let scene = Scene()
        let script = scene.file("exit.lua", "motion.emit('a', 1)\nos.exit(3)\n")
        let r = try Spawned(["run", script]).finish()
        #expect(r.status == 3)
        #expect(r.stdout == #"{"t":0,"name":"a","value":1}"# + "\n")
    }

    /// A child cannot reach the JSON Lines descriptor either: it is not inherited.
    @Test func childrenDoNotInheritTheOutputDescriptor() throws {
        let scene = Scene()
        let script = scene.file("fds.lua", """
            motion.emit("a", 1)
            for fd = 3, 20 do os.execute("echo leaked >&" .. fd .. " 2>/dev/null") end
            """)
        let r = try Spawned(["run", script]).finish()
        #expect(r.status == 0)
        #expect(r.stdout == #"{"t":0,"name":"a","value":1}"# + "\n")
    }
}

@Suite(.timeLimit(.minutes(5))) struct WriteErrorTests {
    private static let manyLines = "for i = 1, 200000 do motion.emit('n', i) end\n"

    @Test func aFullDeviceEndsTheRunWithAMessageAndExit1() throws {
        let scene = Scene()
        let script = scene.file("many.lua", Self.manyLines)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try Spawned(["run", script], stdout: full).finish(readStdout: false)
        #expect(r.status == 1)
        #expect(!r.bySignal)
        #expect(r.stderr.contains("error: cannot write the output: No space left on device"))
    }

    /// A script leaving through `os.exit(0)` cannot hide the failure either.
    @Test func aFullDeviceIsReportedWhenTheScriptCallsOsExit() throws {
        let scene = Scene()
        let script = scene.file("exit.lua", "motion.emit('n', 1)\nos.exit(0)\n")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try Spawned(["run", script], stdout: full).finish(readStdout: false)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: cannot write the output: No space left on device"))
    }

    @Test func aClosedStdoutEndsTheRunWithAMessageAndExit1() throws {
        let scene = Scene()
        let script = scene.file("one.lua", "motion.emit('n', 1)\n")
        let r = try Spawned(["run", script], shell: "exec >&-;").finish(readStdout: false)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: cannot write the output: standard output is closed"))
    }

    /// `| head -1`: the reader goes away; the run ends quietly and not with 0, with SIGPIPE
    /// at its default (killed by it) or ignored (exit 141, as a shell reports the former).
    @Test(arguments: [false, true])
    func aClosedPipeEndsQuietlyAndNotWith0(ignoringSIGPIPE: Bool) throws {
        let scene = Scene()
        let script = scene.file("many.lua", Self.manyLines)
        let run = try Spawned(["run", script], shell: ignoringSIGPIPE ? "trap '' PIPE;" : nil)
        #expect(run.readLine() == #"{"t":0,"name":"n","value":1}"#)
        run.closeStdout()
        let r = run.finish(readStdout: false)
        #expect(r.stderr == "")
        if ignoringSIGPIPE {
            #expect(r.status == 141 && !r.bySignal)
        } else {
            #expect((r.bySignal && r.status == SIGPIPE) || r.status == 141)
        }
    }

    /// Live input: each line is written as it happens, so the first line after the reader
    /// left ends the session.
    @Test func aClosedPipeEndsALiveSession() throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let script = scene.file("live.lua", "motion.pointers():subscribe(function(p) motion.emit('x', p.x) end)\n")
        // Stdout is a FIFO whose only reader is a child that takes the first line and exits
        // (see LoneReader for why the test never holds a reader itself).
        let out = scene.fifo("out")
        let reader = try LoneReader(of: out, head: ["-n", "1"], copyingTo: scene.folder.appendingPathComponent("first").path)
        let stdout = try #require(FileHandle(forWritingAtPath: out))
        let run = try Spawned(["run", script, "--device", device], shell: "trap '' PIPE;", stdout: stdout)
        try stdout.close()
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        #expect(String(decoding: reader.waitUntilGone(), as: UTF8.self) == #"{"t":0,"name":"x","value":10}"# + "\n")
        writer.write(touchFrame(usec: 16000, x: 20))
        let r = run.finish(readStdout: false)
        #expect(r.status == 141)
        #expect(!r.stderr.contains("error"))
    }

    @Test func aFullDeviceEndsALiveSessionWithExit1() throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let script = scene.file("live.lua", "motion.pointers():subscribe(function(p) motion.emit('x', p.x) end)\n")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try Spawned(["run", script, "--device", device], stdout: full)
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        let r = run.finish(readStdout: false)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: cannot write the output: No space left on device"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct InterruptionTests {
    /// A file run stuck in a Lua loop: SIGINT and SIGTERM stop it where it is; exit 128 + signal;
    /// the lines already made are all there, whole.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalInterruptsALoopingScript(signal: Int32) throws {
        let scene = Scene()
        let script = scene.file("loop.lua", """
            for i = 1, 1000 do motion.emit("n", i) end
            -- the announcement shares the loop's line: a signal that comes early names it too
            \(scene.announce) while true do pcall(function() while true do end end) end
            """)
        let run = try Spawned(["run", script])
        #expect(scene.waitUntilReady())
        run.send(signal)
        let r = run.finish()
        #expect(r.status == 128 + signal && !r.bySignal)
        #expect(r.stderr.contains("loop.lua:3: interrupted"))
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1001)
        #expect(lines[999] == #"{"t":0,"name":"n","value":1000}"#)
        #expect(lines[1000] == "")
    }

    /// A hook belongs to one Lua thread: a loop inside a coroutine is interrupted too.
    @Test(arguments: [
        "coroutine.resume(coroutine.create(function() ANNOUNCE while true do end end))",
        "coroutine.wrap(function() coroutine.yield() end)() coroutine.wrap(function() ANNOUNCE while true do end end)()",
    ])
    func aSignalInterruptsALoopInsideACoroutine(loop: String) throws {
        let scene = Scene()
        // Announced from inside the coroutine: the signal comes while it runs.
        let script = scene.file("co.lua", "motion.emit('a', 1)\n" + loop.replacingOccurrences(of: "ANNOUNCE", with: scene.announce) + "\n")
        let run = try Spawned(["run", script])
        #expect(scene.waitUntilReady())
        run.send(SIGINT)
        let r = run.finish()
        #expect(r.status == 130 && !r.bySignal)
        #expect(r.stderr.contains("co.lua:2: interrupted"))
    }

    /// `--watch`: a callback that loops is interrupted and the session ends (exit 0).
    @Test func aSignalStopsALoopingCallbackUnderWatch() throws {
        let scene = Scene()
        let events = scene.file("drag.events.jsonl", shortDragEvents)
        let script = scene.file("loop.lua", """
            motion.pointers():subscribe(function(p)
              \(scene.announce) while true do end
            end)
            """)
        let run = try Spawned(["run", script, "--watch", "--events", events])
        #expect(scene.waitUntilReady())
        run.send(SIGINT)
        let r = run.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("loop.lua:2: interrupted"))
    }

    /// `--watch`: a version whose setup loops is interrupted too.
    @Test func aSignalStopsALoopingSetupUnderWatch() throws {
        let scene = Scene()
        let script = scene.file("loop.lua", "motion.emit('a', 1)\n\(scene.announce) while true do end\n")
        let run = try Spawned(["run", script, "--watch"])
        #expect(scene.waitUntilReady())
        run.send(SIGTERM)
        let r = run.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("loop.lua:2: interrupted"))
    }

    /// `--device`, with and without `--watch`: a callback that loops on a live frame.
    @Test(arguments: [false, true])
    func aSignalStopsALoopingCallbackOnLiveInput(watch: Bool) throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let script = scene.file("loop.lua", """
            motion.pointers():subscribe(function(p)
              \(scene.announce) while true do end
            end)
            """)
        let run = try Spawned(["run", script, "--device", device] + (watch ? ["--watch"] : []))
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        #expect(scene.waitUntilReady())
        run.send(SIGINT)
        let r = run.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("loop.lua:2: interrupted"))
    }

    /// Waiting for input, a signal ends the session normally: the pointers still down are
    /// cancelled, exit 0.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileWaitingEndsALiveSessionCancellingThePointers(signal: Int32) throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let script = scene.file("phases.lua", "motion.pointers():subscribe(function(p) motion.emit('p', p.phase) end)\n")
        // Raw units said (`--surface raw`): a FIFO describes no resolution, and stderr is pinned whole.
        let run = try Spawned(["run", script, "--device", device, "--surface", "raw"])
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        #expect(run.readLine() == #"{"t":0,"name":"p","value":"down"}"#)
        run.waitUntilBlocked(in: "poll")
        run.send(signal)
        let r = run.finish()
        #expect(r.status == 0 && !r.bySignal)
        #expect(r.stdout == #"{"t":0,"name":"p","value":"cancel"}"# + "\n")
        #expect(r.stderr == "motionscript: stopped\n")
    }

    /// `record` ends on a signal too, saying how many events it kept.
    @Test func aSignalEndsARecording() throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let run = try Spawned(["record", "--device", device])
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        run.waitUntilBlocked(in: "poll")
        run.send(SIGINT)
        let r = run.finish()
        #expect(r.status == 0)
        #expect(r.stderr.contains("motionscript: recorded 5 events (stopped)"))
    }

    /// `run --events FIFO` with no writer waited past the first signal (a poll that went on
    /// after EINTR, or ran on a thread the signal did not reach): the first one ends it.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheWaitForAWriterOnAnEventsFIFO(signal: Int32) throws {
        let scene = Scene()
        let events = scene.fifo("events")
        let script = scene.file("s.lua", "motion.emit('a', 1)\n")
        let run = try Spawned(["run", script, "--events", events])
        run.waitUntilBlocked(in: "poll")
        run.send(signal)
        let r = run.finish()
        #expect(r.status == 128 + signal && !r.bySignal, "\(r)")
        #expect(r.stderr.hasSuffix("error: \(events): interrupted while waiting for a writer on this FIFO\n"), "\(r.stderr)")
    }

    /// A script given as a FIFO (Lua's `fopen` waited in `open` for a writer past any signal)
    /// is read as event files are; the first signal ends the wait. With a writer it runs.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheWaitForAWriterOnAScriptFIFO(signal: Int32) throws {
        let scene = Scene()
        let script = scene.fifo("script.lua")
        let run = try Spawned(["run", script])
        run.waitUntilBlocked(in: "poll")
        run.send(signal)
        let r = run.finish()
        #expect(r.status == 128 + signal && !r.bySignal, "\(r)")
        #expect(r.stderr.hasSuffix("error: \(script): interrupted while waiting for a writer on this FIFO\n"), "\(r.stderr)")
    }

    @Test func aScriptFIFOWithAWriterRuns() throws {
        let scene = Scene()
        let script = scene.fifo("script.lua")
        let run = try Spawned(["run", script, "--", "x"])
        let writer = DeviceWriter(script)
        writer.write(Array("motion.emit('arg', arg[1])\nerror('at line 2')\n".utf8))
        writer.close()
        let r = run.finish()
        #expect(r.status == 1)
        #expect(r.stdout == #"{"t":0,"name":"arg","value":"x"}"# + "\n")
        #expect(r.stderr.hasPrefix("error: \(script):2: at line 2\n") || r.stderr.contains("script.lua:2: at line 2"), "\(r.stderr)")
    }

    /// Blocked inside C (a FIFO nobody writes), the first SIGTERM cannot stop the script; the
    /// second ends the process.
    @Test func aSecondSignalEndsTheProcess() throws {
        let scene = Scene()
        let never = scene.fifo("never")
        let script = scene.file("blocked.lua", "\(scene.announce)\nlocal f = io.open('\(never)', 'r')\n")
        let run = try Spawned(["run", script])
        #expect(scene.waitUntilReady())
        run.waitUntilBlocked(in: "wait_for_partner")
        run.send(SIGTERM)
        run.waitUntilDelivered(SIGTERM)
        run.send(SIGTERM)
        let r = run.finish()
        #expect(r.bySignal && r.status == SIGTERM, "\(r)")
    }
}

@Suite(.timeLimit(.minutes(5))) struct LiveTimeoutTests {
    /// `--timeout` bounds each live frame, not the session: a healthy session outlives it.
    @Test func aHealthyLiveSessionOutlivesItsTimeout() throws {
        let scene = Scene()
        let device = scene.fifo("device")
        // Enough Lua instructions per frame to reach the hook that checks the time limit.
        let script = scene.file("echo.lua", """
            motion.pointers():subscribe(function(p)
              local n = 0
              for i = 1, 30000 do n = n + i end
              motion.emit('x', p.x)
            end)
            """)
        let run = try Spawned(["run", script, "--device", device, "--timeout", "0.5"])
        let writer = DeviceWriter(device)
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        #expect(run.readLine() == #"{"t":0,"name":"x","value":10}"#)
        usleep(1_000_000)  // longer than the time limit, between two frames
        writer.write(touchFrame(usec: 16000, x: 20))
        #expect(run.readLine() == #"{"t":0.016,"name":"x","value":20}"#)
        writer.close()
        let r = run.finish()
        #expect(r.status == 0)
        #expect(!r.stderr.contains("timeout"))
    }

    /// The watchdog runs in `--watch` and `--device` modes: a callback blocked in C is stopped.
    @Test(arguments: ["watch", "device", "watch-device"])
    func aCallbackBlockedInCIsStoppedByTheWatchdog(mode: String) throws {
        let scene = Scene()
        let never = scene.fifo("never")
        let device = scene.fifo("device")
        let events = scene.file("drag.events.jsonl", shortDragEvents)
        let script = scene.file("blocked.lua", """
            motion.pointers():subscribe(function(p) local f = io.open('\(never)', 'r') end)
            """)
        var arguments = ["run", script, "--timeout", "0.1"]
        if mode.contains("watch") { arguments.append("--watch") }
        arguments += mode.contains("device") ? ["--device", device] : ["--events", events]
        let run = try Spawned(arguments)
        let writer = mode.contains("device") ? DeviceWriter(device) : nil
        defer { writer?.close() }
        writer?.write(touchFrame(usec: 0, x: 10, first: true))
        let r = run.finish()
        #expect(r.status == 1)
        #expect(r.stderr.contains("timeout: still running 2.0 s after the time limit of 0.1 s"))
    }

    /// A live callback that loops is stopped at the frame's time limit: the run's watchdog
    /// watches each frame's work, and its signal hooks the Lua code running (no hook before),
    /// also under `pcall` and inside a coroutine.
    @Test(arguments: [
        "while true do end",
        "while true do pcall(function() while true do end end) end",
        "coroutine.wrap(function() while true do end end)()",
    ])
    func aLoopingLiveCallbackIsStoppedAtItsFramesTimeLimit(_ loop: String) throws {
        let scene = Scene()
        let device = scene.fifo("device")
        let script = scene.file("loop.lua", "motion.pointers():subscribe(function(p) \(loop) end)\n")
        let run = try Spawned(["run", script, "--device", device, "--timeout", "0.1"])
        let writer = DeviceWriter(device)
        defer { writer.close() }
        writer.write(touchFrame(usec: 0, x: 10, first: true))
        let r = run.finish()
        #expect(r.status == 1)
        #expect(r.stderr.contains("loop.lua:1: timeout"))
    }
}

/// An output path that is a FIFO with no reader: the wait for one ends on the first signal,
/// and the FIFO is still a FIFO (it was replaced by a regular file through a rename).
@Suite(.timeLimit(.minutes(5))) struct OutputFIFOSignalTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aJUnitReportWaitingForAReaderEndsOnTheFirstSignal(signal: Int32) throws {
        let scene = Scene()
        writeScenario("one", script: "motion.emit('n', 1)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: scene.folder)
        let fifo = scene.fifo("junit.fifo")
        let run = try Spawned(["test", "--junit", fifo, scene.folder.path])
        run.waitUntilBlocked(in: "poll")
        run.send(signal)
        let r = run.finish()
        #expect(r.status == 128 + signal, "\(r.stderr)")
        var info = stat()
        lstat(fifo, &info)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func runPlotWaitingForAReaderEndsOnTheFirstSignalWithItsLinesPrinted() throws {
        let scene = Scene()
        let script = scene.file("p.lua", "motion.pointers():emit('p')\n")
        let events = scene.file("e.jsonl", #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n")
        let fifo = scene.fifo("plot.fifo")
        let run = try Spawned(["run", script, "--events", events, "--plot", fifo])
        #expect(run.readLine() == #"{"t":0,"name":"p","value":{"id":1,"phase":"down","x":1,"y":2}}"#)
        run.waitUntilBlocked(in: "poll")
        run.send(SIGINT)
        let r = run.finish()
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("interrupted while waiting for a reader"))
    }
}
