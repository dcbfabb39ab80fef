import Foundation
import Testing
import MotionTestSupport

/// `motionscript daemon` as a command: the replay of a whole configuration, its exit status,
/// its usage errors.
@Suite(.timeLimit(.minutes(5))) struct DaemonCommandTests {
    @Test func theToursFolderReplaysToTaggedLines() throws {
        let r = try runMotionscript(["daemon", "examples/plugins", "--events", "examples/drag.events.jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"t":0,"plugin":"drag","status":"loaded","version":1}
            {"t":0,"plugin":"drag","name":"position","value":{"x":100,"y":200}}
            {"t":0,"plugin":"swipes","status":"loaded","version":1}
            {"t":0.032,"plugin":"drag","name":"position","value":{"x":112,"y":209}}
            {"t":0.048,"plugin":"drag","name":"position","value":{"x":120,"y":215}}
            {"t":0.216,"plugin":"drag","name":"position","value":{"x":110,"y":215}}
            {"t":0.232,"plugin":"drag","name":"position","value":{"x":108,"y":215}}

            """)
        #expect(r.stderr.isEmpty)
    }

    @Test func aPluginThatExitsFailsAloneAndTheReplayExitsOne() throws {
        let folder = makeTemporaryFolder("daemon")
        writeFile(#"motion.pointers():subscribe(function(p) motion.emit("p", p.phase) end)"#, "a.lua", in: folder)
        writeFile("print('bye'); os.exit(0)", "b.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":1}"#, "e.jsonl", in: folder)
        let r = try runMotionscript(["daemon", folder.path, "--events", events])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix(#"{"t":0,"plugin":"b","status":"failed","version":0,"error":""#))
        #expect(lines[1].contains("os.exit is not available to a plugin (b)"))
        // The pointer still down at the end of input is cancelled.
        #expect(Array(lines[2...]) == [#"{"t":0,"plugin":"a","name":"p","value":"down"}"#,
                                       #"{"t":0,"plugin":"a","name":"p","value":"cancel"}"#])
        // print and diagnostics go to stderr, each line starting with the plugin's name.
        #expect(r.stderr.hasPrefix("b: bye\nb: error: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("motionscript: b did not run to the end (see above)\n"))
    }

    @Test func usageErrorsExitTwo() throws {
        let missing = try runMotionscript(["daemon", "/nonexistent/folder", "--events", "examples/drag.events.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open the config folder /nonexistent/folder"))
        let both = try runMotionscript(["daemon", "examples/plugins", "--events", "examples/drag.events.jsonl", "--device", "touchpad"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("use --events or --device, not both"))
        let badTimeout = try runMotionscript(["daemon", "examples/plugins", "--timeout", "-1"])
        #expect(badTimeout.status == 2)
        let badEvents = try runMotionscript(["daemon", "examples/plugins", "--events", "/nonexistent.jsonl"])
        #expect(badEvents.status == 2)
    }
}
