import Foundation
import Testing
import MotionTestSupport

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func motionscript(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
    try runMotionscript(arguments, in: root)
}

private func temp(_ name: String, _ text: String) -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)-\(name)")
    try! text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// API.md "Command line": exit status 0 success, 1 script error, 2 bad usage or bad input.
@Suite(.timeLimit(.minutes(5))) struct CommandLineTests {
    @Test func runPrintsTheDragExampleAndExits0() throws {
        let r = try motionscript("run", "examples/drag.lua", "--events", "examples/drag.events.jsonl")
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").last == #"{"t":0.232,"name":"position","value":{"x":108,"y":215}}"#)
    }

    @Test func unknownOptionPrintsUsageAndExits2() throws {
        let r = try motionscript("run", "examples/drag.lua", "--bogus")
        #expect(r.status == 2)
        #expect(r.stderr.contains("Unknown option '--bogus'"))
        #expect(r.stderr.contains("Usage: motionscript run ["))
    }

    @Test func missingScriptArgumentExits2() throws {
        let r = try motionscript("run")
        #expect(r.status == 2)
        #expect(r.stderr.contains("Missing expected argument '<script>'"))
    }

    @Test func malformedEventFileExits2WithFileAndLine() throws {
        let events = temp("bad.jsonl", "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"t\":0.1,\"id\":1,\"phase\":\"hover\",\"x\":1,\"y\":2}\n")
        let r = try motionscript("run", "examples/drag.lua", "--events", events)
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(events):2: unknown phase \"hover\" (expected down, move, up or cancel)\n")
    }

    @Test func syntaxErrorExits1WithFileAndLine() throws {
        let script = temp("syntax.lua", "local x = \nlocal = 3\n")
        let r = try motionscript("run", script)
        #expect(r.status == 1)
        #expect(r.stderr.contains("syntax.lua:2: unexpected symbol near 'local'"))
    }

    @Test func errorInACallbackExits1WithTraceback() throws {
        let script = temp("cb.lua", """
            motion.gesture(motion.pan{}):map(function(g)
                if g.state == "began" then error("callback failed") end
            end):subscribe(function() end)
            """)
        let r = try motionscript("run", script, "--events", "examples/drag.events.jsonl")
        #expect(r.status == 1)
        #expect(r.stderr.contains("cb.lua:2: callback failed"))
        #expect(r.stderr.contains("stack traceback:"))
    }

    @Test func runawayScriptIsStoppedByTimeoutAndExits1() throws {
        let script = temp("spin.lua", "while true do end\n")
        let r = try motionscript("run", script, "--timeout", "0.3")
        #expect(r.status == 1)
        #expect(r.stderr.contains("spin.lua:1: timeout: the script ran past its time limit"))
    }
}

/// The commands and options of API.md's command line exist.
@Suite(.timeLimit(.minutes(5))) struct CommandLineContractTests {
    @Test(arguments: [
        ("run", ["--events", "--device", "--grab", "--watch"]),
        ("test", ["--jobs", "--update", "--junit", "--shard"]),
        ("record", ["--device", "-o"]),
        ("devices", []),
    ])
    func commandHasItsOptions(command: String, options: [String]) throws {
        let r = try motionscript(command, "--help")
        #expect(r.status == 0)
        for option in options {
            #expect(r.stdout.contains(option), "\(command) --help lacks \(option)")
        }
    }
}

/// `motionscript record` writes an evemu recording that `run` replays to the same pointer events.
@Suite(.timeLimit(.minutes(5))) struct RecordCommandTests {
    @Test func recordFromAFIFOThenReplayGivesTheSamePointers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let recording = folder.appendingPathComponent("out.evemu").path
        // Protocol B: tracking id 3 down at (10,20), moves to (15,20), lifts.
        var bytes = inputEvent(sec: 5, usec: 0, 3, 0x2f, 0) + inputEvent(sec: 5, usec: 0, 3, 0x39, 3) + inputEvent(sec: 5, usec: 0, 3, 0x35, 10) + inputEvent(sec: 5, usec: 0, 3, 0x36, 20)
        bytes += inputEvent(sec: 5, usec: 0, 0, 0, 0)
        bytes += inputEvent(sec: 5, usec: 8000, 3, 0x35, 15) + inputEvent(sec: 5, usec: 8000, 0, 0, 0)
        bytes += inputEvent(sec: 5, usec: 16000, 3, 0x39, -1) + inputEvent(sec: 5, usec: 16000, 0, 0, 0)
        let writer = Thread { [bytes] in
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let recorded = try motionscript("record", "--device", fifo, "-o", recording)
        #expect(recorded.status == 0)
        #expect(recorded.stderr.contains("recorded 9 events"))
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.hasPrefix("# EVEMU"))
        let script = folder.appendingPathComponent("pointers.lua").path
        try "motion.pointers():emit('p')\n".write(toFile: script, atomically: true, encoding: .utf8)
        let replay = try motionscript("run", script, "--events", recording)
        #expect(replay.status == 0)
        #expect(replay.stdout == """
            {"t":0,"name":"p","value":{"id":3,"phase":"down","x":10,"y":20,"device":{"name":"\(fifo)","kind":"other"}}}
            {"t":0.008,"name":"p","value":{"id":3,"phase":"move","x":15,"y":20,"device":{"name":"\(fifo)","kind":"other"}}}
            {"t":0.016,"name":"p","value":{"id":3,"phase":"up","x":15,"y":20,"device":{"name":"\(fifo)","kind":"other"}}}

            """)
    }
}

@Suite(.timeLimit(.minutes(5))) struct WatchdogTests {
    @Test func aScriptBlockedOutsideLuaIsStoppedAfterTheTimeout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blocked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("blocked.lua")
        // Opening a FIFO no one writes blocks inside C, where the Lua hook never runs (and,
        // unlike os.execute, leaves no child process behind).
        let fifo = folder.appendingPathComponent("never").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try "local f = io.open('\(fifo)', 'r')\n".write(to: script, atomically: true, encoding: .utf8)
        let r = try motionscript("run", script.path, "--timeout", "0.2")
        #expect(r.status == 1)
        #expect(r.stderr.contains("timeout: still running 2.0 s after the time limit of 0.2 s"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct PrintTests {
    @Test func printGoesToStderrAndKeepsTheJSONLinesClean() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("print-\(UUID().uuidString).lua")
        try "print('debug', 1, nil, true)\nmotion.emit('x', 1)\n".write(to: script, atomically: true, encoding: .utf8)
        let r = try motionscript("run", script.path)
        #expect(r.status == 0)
        #expect(r.stdout == #"{"t":0,"name":"x","value":1}"# + "\n")
        #expect(r.stderr == "debug\t1\tnil\ttrue\nmotionscript: no --events or --device: ran the script's setup only\n")
    }
}

@Suite(.timeLimit(.minutes(5))) struct MissingScriptTests {
    @Test(arguments: ["/nonexistent/motion.lua", "/tmp"])
    func aScriptThatCannotBeReadIsBadUsage(path: String) throws {
        let r = try motionscript("run", path)
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot read the script \(path)"))
        #expect(r.stderr.contains("Usage: motionscript run ["))
    }
}

@Suite(.timeLimit(.minutes(5))) struct TestCommandTests {
    @Test func anEmptyFolderIsBadUsage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let r = try motionscript("test", folder.path)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == "motionscript: no scenarios found in \(folder.path)\n")
    }

    @Test func theExampleBatchPassesThroughTheBinary() throws {
        let r = try motionscript("test", "examples/scenarios", "--jobs", "2")
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("25 passed, 0 failed, 2 skipped\n"))
    }
}
