import Foundation
import Testing
import MotionInput
import MotionTestSupport

/// `--proxy` and `--proxy-output` on the command line (docs/desktop.md, "The proxy").
@Suite struct ProxyCommandTests {
    static let pad = "examples/scenarios/proxy/staggered-lifts"

    @Test func badCombinationsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["run", "examples/drag.lua", "--device", "/dev/null", "--proxy", "--proxy-output", "/tmp/x.evemu"],
             "error: --proxy-output is for replays (--events): on live input the clone is a device; watch it with `libinput debug-events --device NODE` (docs/desktop.md)"),
            (["run", "examples/drag.lua", "--device", "/dev/null", "--proxy", "--watch"],
             "error: --proxy on live input does not go with --watch (each reload would make the clones again): use it without --watch"),
            (["run", "examples/drag.lua", "--device", "/dev/null", "--proxy", "--grab"],
             "error: use --proxy or --grab, not both (--proxy grabs each device itself and gives the desktop a clone)"),
            (["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--proxy-output", "/tmp/x.evemu"],
             "error: --proxy-output needs --proxy"),
            (["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--proxy", "--watch"],
             "error: --proxy replays the events once: use it without --watch"),
            (["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--proxy", "--plot", "/tmp/x.svg"],
             "error: use --plot or --proxy, not both (the picture has no place for the clone's decisions)"),
            (["daemon", "examples/plugins", "--device", "/dev/null", "--proxy", "--grab"],
             "error: use --proxy or --grab, not both (--proxy grabs each device itself and gives the desktop a clone)"),
        ]
        for (arguments, message) in cases {
            let r = try runMotionscript(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.hasPrefix(message + "\n"), "\(arguments): \(r.stderr)")
        }
    }

    @Test func jsonLinesEventsHaveNoDeviceFramesToPass() throws {
        let r = try runMotionscript(["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--proxy"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("examples/drag.events.jsonl: --proxy needs evdev events (an evemu, libinput or raw recording)"), "\(r.stderr)")
    }

    @Test func aReplayWritesTheDecisionsAndWhatTheCloneGot() throws {
        let out = NSTemporaryDirectory() + "proxy-\(getpid())-clone.evemu"
        defer { unlink(out) }
        let r = try runMotionscript(["run", Self.pad + ".lua", "--events", Self.pad + ".evemu", "--proxy", "--proxy-output", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").map(String.init) == [
            #"{"t":0,"name":"proxy","value":{"decision":"held"}}"#,
            #"{"t":0.2,"name":"swipe3","value":"left"}"#,
            #"{"t":0.2,"name":"proxy","value":{"decision":"consumed","frames":21}}"#,
            #"{"t":0.24,"name":"proxy","value":{"decision":"touch","passed":0,"held":21,"consumed":25}}"#,
        ])
        // A consumed touch: the clone's recording has its identity and no event.
        let clone = try String(contentsOfFile: out, encoding: .utf8)
        #expect(clone.contains("N: motionscript synthetic clickpad\nI: 0018 06cb 7e7e 0100\nP: 05 00 00 00 00 00 00 00\n"))
        #expect(clone.contains("A: 35 0 1200 0 0 12\n"))
        #expect(!clone.contains("\nE: "))
    }

    @Test func aPassedTouchReachesTheCloneUnchangedAndTheDaemonSaysTheSame() throws {
        let out = NSTemporaryDirectory() + "proxy-\(getpid())-pass.evemu"
        defer { unlink(out) }
        let events = "examples/scenarios/proxy/phantom-click-4-finger-tail.evemu"
        let r = try runMotionscript(["run", "examples/scenarios/proxy/phantom-click-4-finger-tail.lua", "--events", events,
                                     "--proxy", "--proxy-output", out])
        #expect(r.status == 0, "\(r.stderr)")
        func eventFields(_ text: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("E: ") }.map { $0.split(separator: "\t")[0].split(separator: " ").dropFirst(2).joined(separator: " ") }
        }
        let input = try String(contentsOfFile: events, encoding: .utf8)
        let clone = try String(contentsOfFile: out, encoding: .utf8)
        #expect(eventFields(clone) == eventFields(input))
        #expect(eventFields(clone).count == 316)
        // Released at 0.03 with their 10 ms spacing: the first frame is due at 0.03.
        #expect(clone.contains("\nE: 0.030000 0003 0039 0301\t"))
        // The daemon: the same decisions, untagged (the clone is the daemon's).
        let folder = NSTemporaryDirectory() + "proxy-\(getpid())-plugins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: "examples/scenarios/proxy/phantom-click-4-finger-tail.lua", toPath: folder + "/three.lua")
        let daemon = try runMotionscript(["daemon", folder, "--events", events, "--proxy"])
        #expect(daemon.status == 0, "\(daemon.stderr)")
        #expect(daemon.stdout.split(separator: "\n").filter { $0.contains("proxy") }.map(String.init) == [
            #"{"t":0,"name":"proxy","value":{"decision":"held"}}"#,
            #"{"t":0.03,"name":"proxy","value":{"decision":"released","frames":4,"lag":0.03}}"#,
            #"{"t":0.28,"name":"proxy","value":{"decision":"touch","passed":29,"held":4,"consumed":0}}"#,
        ])
    }
}

/// The clones `--proxy` makes are marked by their phys (`motionscript-clone/…`): `devices` says
/// so and the selectors never pick one.
@Suite struct ProxyCloneListingTests {
    static let proc = """
        I: Bus=0018 Vendor=06cb Product=7e7e Version=0100
        N: Name="SYNA7DB5:01 06CB:CD41 Touchpad"
        P: Phys=i2c-SYNA7DB5:01
        H: Handlers=mouse1 event7
        B: PROP=5
        B: EV=1b
        B: ABS=2e0800000000003

        I: Bus=0018 Vendor=06cb Product=7e7e Version=0100
        N: Name="SYNA7DB5:01 06CB:CD41 Touchpad"
        P: Phys=motionscript-clone/i2c-SYNA7DB5:01
        H: Handlers=mouse3 event21
        B: PROP=5
        B: EV=1b
        B: ABS=2e0800000000003

        """

    @Test func devicesMarksTheClone() throws {
        let folder = makeTemporaryFolder("clone-devices")
        let proc = writeFile(Self.proc, "devices", in: folder)
        let text = try runMotionscript(["devices", "--proc-file", proc])
        #expect(text.stdout == """
            /dev/input/event7    touchpad     SYNA7DB5:01 06CB:CD41 Touchpad
            /dev/input/event21   touchpad     SYNA7DB5:01 06CB:CD41 Touchpad  (a --proxy clone: never read by motionscript)

            """)
        let json = try runMotionscript(["devices", "--json", "--proc-file", proc])
        #expect(json.stdout.split(separator: "\n").map(String.init) == [
            #"{"kind":"touchpad","name":"SYNA7DB5:01 06CB:CD41 Touchpad","node":"/dev/input/event7"}"#,
            #"{"clone":true,"kind":"touchpad","name":"SYNA7DB5:01 06CB:CD41 Touchpad","node":"/dev/input/event21"}"#,
        ])
    }

    @Test func theListParsesPhys() {
        let devices = InputDeviceList.parse(Self.proc)
        #expect(devices.map(\.phys) == ["i2c-SYNA7DB5:01", "motionscript-clone/i2c-SYNA7DB5:01"])
        #expect(devices.map(\.isProxyClone) == [false, true])
    }
}
