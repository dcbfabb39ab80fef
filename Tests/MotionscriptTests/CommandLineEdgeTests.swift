import Foundation
import Testing
@testable import MotionLua
import MotionJSON
import MotionTestSupport

/// What the command line says when an argument is wrong, and the numbers and times it prints.
@Suite(.timeLimit(.minutes(5))) struct CommandLineEdgeTests {
    @Test func negativeNumbersAreReadAndRejectedWithTheReason() throws {
        let cases: [([String], String)] = [
            (["run", "examples/drag.lua", "--timeout", "-1"], "error: --timeout must be >= 0 seconds (0 = no limit), got -1.0"),
            (["run", "examples/drag.lua", "--memory", "-1"], "error: --memory must be >= 0 MiB (0 = no limit), got -1"),
            (["run", "examples/drag.lua", "--surface", "-5x100"],
             "error: --surface must be WIDTHxHEIGHT with positive numbers (e.g. 1920x1080), mm, auto or raw, got -5x100"),
            (["test", "examples/scenarios", "--jobs", "-2"], "error: --jobs must be >= 1, got -2"),
            (["test", "examples/scenarios", "--timeout", "-1"], "error: --timeout must be >= 0 seconds (0 = no limit), got -1.0"),
            (["run", "examples/drag.lua", "--app", ""], "error: --app needs an application name"),
            (["run", "examples/drag.lua", "--device", "/dev/null", "--app-provider", "gnome-shell"],
             "error: --app-provider must be sway, hyprland, kwin, gnome, wlroots, x11 or none, got gnome-shell"),
            (["run", "examples/drag.lua", "--app-provider", "sway"],
             "error: --app-provider is for live input (a replay's focused application comes from its app lines or --app)"),
            (["run", "examples/drag.lua", "--device", "/dev/null", "--app-provider", "sway", "--app", "foot"],
             "error: use --app or --app-provider, not both"),
            (["test", "examples/scenarios", "--app", ""], "error: --app needs an application name"),
            (["record", "--device", "/dev/null", "--app-provider", "kde"], "error: --app-provider must be sway, hyprland, kwin, gnome, wlroots, x11 or none, got kde"),
            // One check for every command that takes the option: the same values refused, in the same words.
            (["run", "examples/drag.lua", "--timeout", "inf"], "error: --timeout must be >= 0 seconds (0 = no limit), got inf"),
            (["daemon", "examples/plugins", "--timeout", "inf"], "error: --timeout must be >= 0 seconds (0 = no limit), got inf"),
            (["test", "examples/scenarios", "--timeout", "inf"], "error: --timeout must be >= 0 seconds (0 = no limit), got inf"),
            (["daemon", "examples/plugins", "--memory", "-1"], "error: --memory must be >= 0 MiB (0 = no limit), got -1"),
            (["test", "examples/scenarios", "--memory", "8796093022208"], "error: --memory must be at most 8796093022207 MiB, got 8796093022208"),
            (["daemon", "examples/plugins", "--app", ""], "error: --app needs an application name"),
            (["run", "examples/drag.lua", "--axes", "0:100:0,0:100"], "error: --axes: the X resolution in '0:100:0' must be a whole number of units per millimetre above 0, e.g. 0:1200:12"),
            (["daemon", "examples/plugins", "--axes", "0:100:0,0:100"], "error: --axes: the X resolution in '0:100:0' must be a whole number of units per millimetre above 0, e.g. 0:1200:12"),
            (["record", "--device", "/dev/null", "--axes", "0:100:0,0:100"], "error: --axes: the X resolution in '0:100:0' must be a whole number of units per millimetre above 0, e.g. 0:1200:12"),
            // --app-provider: one check for run, daemon and record, in the same words.
            (["daemon", "examples/plugins", "--events", "examples/drag.events.jsonl", "--app-provider", "sway"],
             "error: --app-provider is for live input (a replay's focused application comes from its app lines or --app)"),
            (["daemon", "examples/plugins", "--app-provider", "kde"], "error: --app-provider must be sway, hyprland, kwin, gnome, wlroots, x11 or none, got kde"),
            (["daemon", "examples/plugins", "--app-provider", "sway", "--app", "foot"], "error: use --app or --app-provider, not both"),
            (["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--device", "/dev/null"], "error: use --events or --device, not both"),
            (["daemon", "examples/plugins", "--events", "examples/drag.events.jsonl", "--device", "/dev/null"], "error: use --events or --device, not both"),
            // Seconds are finite wherever an option takes them: `ctl record --last inf` reached the
            // daemon as "last": null (the writer prints infinity as null).
            (["ctl", "record", "--socket", "/nonexistent/control.sock", "--last", "inf", "-o", "/nonexistent/x.evemu"],
             "error: --last must be > 0 seconds, got inf"),
            (["ctl", "scenario", "x", "--socket", "/nonexistent/control.sock", "--last", "inf"], "error: --last must be > 0 seconds, got inf"),
            (["ctl", "scenario", "x", "--socket", "/nonexistent/control.sock", "--last", "0"], "error: --last must be > 0 seconds, got 0.0"),
            (["daemon", "examples/plugins", "--flight-recorder", "inf"], "error: --flight-recorder must be >= 0 seconds (0 = off), got inf"),
            (["daemon", "examples/plugins", "--flight-recorder", "-1"], "error: --flight-recorder must be >= 0 seconds (0 = off), got -1.0"),
            // A script argument is a readable file for run and plot alike (plot took a folder for one).
            (["plot", "examples", "--events", "examples/drag.events.jsonl"], "error: cannot read the script examples"),
            (["run", "examples"], "error: cannot read the script examples"),
        ]
        for (arguments, message) in cases {
            let r = try runMotionscript(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.hasPrefix(message + "\n"), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("Missing value"))
            #expect(r.stderr.contains("Usage: motionscript \(arguments[0]) "), "\(arguments)")
        }
    }

    @Test func everyErrorStartsWithOneSpelling() throws {
        for arguments in [["run"], ["run", "examples/drag.lua", "--bogus"], ["test", "README.md"], ["frobnicate"],
                          ["run", "no-such-script.lua"]] {
            let r = try runMotionscript(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.hasPrefix("error: "), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("Error:"), "\(arguments)")
        }
    }

    @Test func testGivenAFileThatIsNoScriptPrintsTestsUsage() throws {
        let r = try runMotionscript(["test", "README.md"])
        #expect(r.stderr == """
            error: not a Lua script, NAME.script or folder: README.md
            Usage: motionscript test [<paths> ...] [--jobs <jobs>] [--update] [--junit <junit>] [--shard <shard>] [--filter <filter>] [--timeout <timeout>] [--memory <memory>] [--trusted] [--surface <surface>] [--axes <axes>] [--app <app>]
              See 'motionscript test --help' for more information.

            """)
    }

    @Test func helpShowsEachDefaultOnce() throws {
        for command in ["run", "test", "record", "plot", "init"] {
            let help = try runMotionscript([command, "--help"]).stdout
            let flattened = help.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
            #expect(!flattened.contains(") (default:"), "\(command): \(flattened)")
        }
        let test = try runMotionscript(["test", "--help"]).stdout
        #expect(test.contains("Scenarios to run at once (default: the number of\n                          cores).\n")
                || test.contains("(default: the number of cores)."))
    }

    @Test func runWithoutInputSaysItRanTheSetupOnly() throws {
        let r = try runMotionscript(["run", "examples/drag.lua"])
        #expect(r.status == 0)
        #expect(r.stderr == "motionscript: no --events or --device: ran the script's setup only\n")
        #expect(r.stdout == #"{"t":0,"name":"position","value":{"x":100,"y":200}}"# + "\n")
    }

    @Test func devicesSaysWhenTheKernelListIsMissing() throws {
        let r = try runMotionscript(["devices", "--proc-file", "/nonexistent/input/devices"])
        #expect(r.status == 2)
        #expect(r.stderr == "error: /nonexistent/input/devices does not exist: the kernel's input device list cannot be read here (no /proc, or not Linux)\n")
        let folder = makeTemporaryFolder("devices")
        let empty = writeFile("", "devices", in: folder)
        let none = try runMotionscript(["devices", "--proc-file", empty])
        #expect(none.status == 0)
        #expect(none.stdout == "no input devices found (\(empty) lists none)\n")
    }

    @Test func recordSaysWhenItStarts() throws {
        let folder = makeTemporaryFolder("record")
        let fifo = folder.appendingPathComponent("input").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = folder.appendingPathComponent("out.evemu").path
        // The writer opens, writes nothing and closes the FIFO: the recording ends at once.
        let writer = Thread { let fd = open(fifo, O_WRONLY | O_CLOEXEC); if fd >= 0 { close(fd) } }
        writer.start()
        let r = try runMotionscript(["record", "--device", fifo, "-o", out])
        #expect(r.stderr.hasPrefix("motionscript: recording \(fifo) to \(out); Ctrl-C stops\n"), "\(r.stderr)")
    }

    @Test func integersFrom1e15PrintWithoutAFraction() {
        #expect(JSONText.number(1e15) == "1000000000000000")
        #expect(JSONText.number(9007199254740992) == "9007199254740992")
        #expect(JSONText.number(-1234567890123456) == "-1234567890123456")
        #expect(JSONText.number(1e16) == "1e+16")
        #expect(JSONText.number(1.5e15) == "1500000000000000")
        #expect(JSONText.number(1234567890123456.5) == "1234567890123456.5")
        #expect(JSONText.number(0.5) == "0.5")
    }

    @Test func outputTimesAreWholeMicroseconds() {
        var writer = JSONWriter()
        writer.valueLine(t: 0.128 + 1, name: "d", value: .number(1))
        writer.stateLine(t: 1.0 / 60, name: "s", state: .active)
        writer.valueLine(t: 2.2e-05, name: "e", value: .number(1e15))
        #expect(String(decoding: writer.copiedBytes, as: UTF8.self) == """
            {"t":1.128,"name":"d","value":1}
            {"t":0.016667,"name":"s","state":"active"}
            {"t":0.000022,"name":"e","value":1000000000000000}

            """.replacingOccurrences(of: "0.000022", with: "2.2e-05"))
    }

    @Test func aDelayedValuesTimeCarriesNoFloatNoise() throws {
        let folder = makeTemporaryFolder("time")
        let script = writeFile("motion.pointers():delay(1):map(function(p) return p.phase end):emit('d')\n", "d.lua", in: folder)
        let events = writeFile("""
            {"t":0,"id":1,"phase":"down","x":0,"y":0}
            {"t":0.128,"id":1,"phase":"up","x":0,"y":0}

            """, "d.events.jsonl", in: folder)
        let r = try runMotionscript(["run", script, "--events", events])
        #expect(r.stdout == """
            {"t":1,"name":"d","value":"down"}
            {"t":1.128,"name":"d","value":"up"}

            """)
    }

    @Test(.enabled(if: sharedRecordings != nil, "needs the evemu recordings in ../shared/recordings"))
    func theFirstFrameOfARecordingIsAtTimeZero() throws {
        let recordings = try #require(sharedRecordings)
        let folder = makeTemporaryFolder("time")
        let script = writeFile("motion.pointers():map(function(p) return p.phase end):emit('p')\n", "p.lua", in: folder)
        let r = try runMotionscript(["run", script, "--events", recordings + "/3m.evemu"])
        let lines = r.stdout.split(separator: "\n").prefix(2)
        // The first SYN_REPORT is 22 µs after the first event: it is t = 0.
        #expect(lines == [#"{"t":0,"name":"p","value":"down"}"#, #"{"t":0.060961,"name":"p","value":"up"}"#])
    }
}
