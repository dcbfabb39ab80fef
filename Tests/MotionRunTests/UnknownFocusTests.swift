import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// docs/desktop.md, "Unknown focus": with no provider, no app line and no `--app`, an `apps =`
/// of exclusions alone admits the gesture (it admits every application it does not name) and
/// one naming applications does not; the run says so once, and `test` once per scenario.
@Suite struct UnknownFocusTests {
    private let script = """
        local notKitty = motion.swipe{fingers = 1, apps = "!kitty"}
        local notEither = motion.swipe{fingers = 1, apps = {"!kitty", "!foot"}}
        local firefox = motion.swipe{fingers = 1, apps = {"firefox", "!kitty"}}
        notKitty:on("recognized", function(g) motion.emit("notKitty", g.app == nil) end)
        notEither:on("recognized", function(g) motion.emit("notEither", g.direction) end)
        firefox:on("recognized", function(g) motion.emit("firefox", g.direction) end)

        """

    private let swipes = """
        {"t":1,"id":1,"phase":"down","x":0,"y":0}
        {"t":1.1,"id":1,"phase":"up","x":200,"y":0}
        {"t":2,"id":1,"phase":"down","x":0,"y":0}
        {"t":2.1,"id":1,"phase":"up","x":200,"y":0}

        """

    @Test func aReplayWithoutAppLinesRunsTheExclusionsAndWarnsOnce() throws {
        let folder = makeTemporaryFolder("unknown-focus")
        let options = RunOptions(scriptPath: writeFile(script, "s.lua", in: folder),
                                 eventsPath: writeFile(swipes, "e.jsonl", in: folder))
        let output = CollectedOutput()
        try Runner.run(options, output: output)
        // g.app is nil: no application is known.
        #expect(output.lines == [
            #"{"t":0.1,"name":"notKitty","value":true}"#,
            #"{"t":0.1,"name":"notEither","value":"right"}"#,
            #"{"t":1.1,"name":"notKitty","value":true}"#,
            #"{"t":1.1,"name":"notEither","value":"right"}"#,
        ])
        #expect(output.logLines.count == 1)
        #expect(output.logLines.first?.hasSuffix("the focused application is unknown (no desktop provider, no app line in the events, no --app): recognizers whose 'apps' name applications do not begin; those that only exclude (\"!name\") do") == true,
                "\(output.logLines)")
    }

    @Test func testSaysOnceOfEachScenarioWhoseAppsMetAnUnknownFocus() throws {
        let folder = makeTemporaryFolder("unknown-focus-scenarios")
        let events = "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":0,\"y\":0}\n{\"t\":0.1,\"id\":1,\"phase\":\"up\",\"x\":200,\"y\":0}\n"
        // Written before exclusions admitted an unknown focus: now it passes.
        writeFile("local s = motion.swipe{fingers = 1, apps = \"!kitty\"}\ns:on(\"recognized\", function(g) motion.emit(\"swipe\", g.direction) end)\n", "excluding.lua", in: folder)
        writeFile(events, "excluding.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"right"}"# + "\n", "excluding.expected.jsonl", in: folder)
        // Names an application nobody said is focused: fails, and the warning says why.
        writeFile("local s = motion.swipe{fingers = 1, apps = \"firefox\"}\ns:on(\"recognized\", function(g) motion.emit(\"swipe\", g.direction) end)\n", "including.lua", in: folder)
        writeFile(events, "including.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"right"}"# + "\n", "including.expected.jsonl", in: folder)
        // Declares its app, or has no `apps`: nothing to say.
        writeFile("-- app: firefox\nlocal s = motion.swipe{fingers = 1, apps = \"firefox\"}\ns:on(\"recognized\", function(g) motion.emit(\"swipe\", g.direction) end)\n", "declared.lua", in: folder)
        writeFile(events, "declared.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"right"}"# + "\n", "declared.expected.jsonl", in: folder)
        writeFile("local s = motion.swipe{fingers = 1}\ns:on(\"recognized\", function(g) motion.emit(\"swipe\", g.direction) end)\n", "plain.lua", in: folder)
        writeFile(events, "plain.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"right"}"# + "\n", "plain.expected.jsonl", in: folder)

        let result = try runMotionscript(["test", folder.path, "--jobs", "1"])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").last == "3 passed, 1 failed")
        let note = "the focused application is unknown (no desktop provider, no app line in the events, no --app): recognizers whose 'apps' name applications do not begin; those that only exclude (\"!name\") do (a scenario gives it with app lines in its events, an '-- app: NAME' line in its script, or test --app)"
        #expect(result.stderr == "warning: excluding: \(note)\nwarning: including: \(note)\n")
    }

    /// A one-finger swipe as raw evdev records: down at (100,100), 200 units right in 0.1 s, up.
    private var rawSwipe: [UInt8] {
        var bytes = [UInt8]()
        bytes += inputEvent(usec: 0, 3, 0x2f, 0) + inputEvent(usec: 0, 3, 0x39, 7) + inputEvent(usec: 0, 3, 0x35, 100) + inputEvent(usec: 0, 3, 0x36, 100)
        bytes += inputEvent(usec: 0, 0, 0, 0)
        bytes += inputEvent(usec: 50000, 3, 0x35, 200) + inputEvent(usec: 50000, 0, 0, 0)
        bytes += inputEvent(usec: 100_000, 3, 0x35, 300) + inputEvent(usec: 100_000, 0, 0, 0)
        bytes += inputEvent(usec: 100_000, 3, 0x39, -1) + inputEvent(usec: 100_000, 0, 0, 0)
        return bytes
    }

    @Test func aLiveRunWithNoProviderRunsTheExclusions() throws {
        let folder = makeTemporaryFolder("unknown-focus-live")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        writeFile(script, "s.lua", in: folder)
        let bytes = rawSwipe
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let result = try runMotionscript(["run", "s.lua", "--device", fifo, "--app-provider", "none"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == """
            {"t":0.1,"name":"notKitty","value":true}
            {"t":0.1,"name":"notEither","value":"right"}

            """)
        #expect(result.stderr.components(separatedBy: "the focused application is unknown").count == 2, "\(result.stderr)")
    }
}
