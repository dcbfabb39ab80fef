import Foundation
import Testing
import MotionDaemon
import MotionGestures
import MotionPluginHost

/// Per-file reloads: only the plugins a changed file concerns reload.
@Suite struct ReloadTests {
    @Test func anEditedModuleReloadsOnlyThePluginsThatRequireIt() throws {
        let config = TestConfig([
            "a.lua": #"local s = require "lib.shared"; motion.emit("a", s.word)"#,
            "b.lua": #"local s = require "lib.shared"; local o = require "lib.other"; motion.emit("b", s.word .. o.word)"#,
            "c.lua": #"local o = require "lib.other"; motion.emit("c", o.word)"#,
            "d.lua": #"motion.emit("d", 1)"#,
            "lib/shared.lua": #"return {word = "one"}"#,
            "lib/other.lua": #"return {word = "x"}"#,
        ])
        let (host, _) = config.host()
        host.loadAll()
        #expect(host.lines.count == 8)
        config.write("lib/shared.lua", #"return {word = "two"}"#)
        host.filesChanged([config.file("lib/shared.lua")])
        #expect(Array(host.lines.dropFirst(8)) == [
            #"{"t":0,"plugin":"a","status":"reloaded","version":2}"#,
            #"{"t":0,"plugin":"a","name":"a","value":"two"}"#,
            #"{"t":0,"plugin":"b","status":"reloaded","version":2}"#,
            #"{"t":0,"plugin":"b","name":"b","value":"twox"}"#,
        ])
        #expect(host.status().map(\.version) == [2, 2, 1, 1])
    }

    @Test func modulesAreFoundFromThePluginsFolderWhateverTheWorkingDirectory() throws {
        let config = TestConfig(["a.lua": #"motion.emit("a", require("lib.m").v)"#, "lib/m.lua": "return {v = 7}"])
        let saved = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath("/")
        defer { FileManager.default.changeCurrentDirectoryPath(saved) }
        let (host, _) = config.host()
        host.loadAll()
        #expect(host.lines(of: "a").contains(#"{"t":0,"plugin":"a","name":"a","value":7}"#))
    }

    @Test func aNewFileLoadsAnEditedOneReloadsARemovedOneUnloads() throws {
        let config = TestConfig(["a.lua": echoPlugin, "b.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        host.run(taps(1), finish: false)
        config.write("c.lua", echoPlugin)
        config.write("b.lua", echoPlugin + "\n-- edited")
        config.remove("a.lua")
        host.filesChanged([config.file("a.lua"), config.file("b.lua"), config.file("c.lua")])
        host.run(taps(1, from: 1))
        #expect(host.lines.filter { $0.contains("status") } == [
            #"{"t":0,"plugin":"a","status":"loaded","version":1}"#,
            #"{"t":0,"plugin":"b","status":"loaded","version":1}"#,
            #"{"t":0.05,"plugin":"a","status":"unloaded","version":1}"#,
            #"{"t":0.05,"plugin":"b","status":"reloaded","version":2}"#,
            #"{"t":0.05,"plugin":"c","status":"loaded","version":1}"#,
        ])
        #expect(host.status().map(\.name) == ["b", "c"])
        // After the changes, b and c both see the next tap, a does not.
        #expect(host.lines(of: "a").count == 4)
        #expect(host.lines(of: "b").filter { $0.hasPrefix(#"{"t":1"#) }.count == 2)
        #expect(host.lines(of: "c").filter { $0.hasPrefix(#"{"t":1"#) }.count == 2)
    }

    @Test func aBrokenEditKeepsThePreviousVersionRunning() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, diagnostics) = config.host()
        host.loadAll()
        config.write("a.lua", "motion.pointers(:subscribe(")
        host.filesChanged([config.file("a.lua")])
        host.run(taps(1))
        let lines = host.lines(of: "a")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix(#"{"t":0,"plugin":"a","status":"failed","version":1,"error":""#))
        #expect(lines[1].contains("a.lua:1:"))
        #expect(Array(lines[2...]) == [#"{"t":0,"plugin":"a","name":"p","value":"down"}"#,
                                       #"{"t":0.05,"plugin":"a","name":"p","value":"up"}"#])
        #expect(diagnostics.lines.contains("a: the new version did not load; version 1 keeps running"))
        #expect(host.plugin(named: "a")?.state == .running)
    }

    @Test func aFingerDownAtAReloadIsHandedToTheNewVersionAndKeptValuesCarryOver() throws {
        let plugin = """
            local n = motion.property(0, {keep = "n"})
            motion.pointers():subscribe(function(p) n:write(n:read() + 1); motion.emit(p.phase, n:read()) end)
            """
        let config = TestConfig(["a.lua": plugin])
        let (host, _) = config.host()
        host.loadAll()
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .down, x: 10, y: 10)]))
        config.write("a.lua", plugin + "\n-- v2")
        host.filesChanged([config.file("a.lua")])
        host.handle(Frame(t: 1.5, events: [PointerEvent(t: 1.5, id: 1, phase: .up, x: 10, y: 10)]))
        #expect(host.lines(of: "a") == [
            #"{"t":0,"plugin":"a","status":"loaded","version":1}"#,
            #"{"t":1,"plugin":"a","name":"down","value":1}"#,
            #"{"t":1,"plugin":"a","status":"reloaded","version":2}"#,
            // The new version receives the finger as down, counting on from the kept value.
            #"{"t":1,"plugin":"a","name":"down","value":2}"#,
            #"{"t":1.5,"plugin":"a","name":"up","value":3}"#,
        ])
    }

    @Test func aDisabledPluginLoadsAgainWhenItsFileChanges() throws {
        let config = TestConfig(["a.lua": "-- motionscript: timeout=0.05\nmotion.pointers():subscribe(function() while true do end end)"])
        let (host, _) = config.host()
        host.loadAll()
        host.run(taps(1), finish: false)
        #expect(host.plugin(named: "a")?.state == .disabled)
        config.write("a.lua", echoPlugin)
        host.filesChanged([config.file("a.lua")])
        #expect(host.plugin(named: "a")?.state == .running)
        #expect(host.lines(of: "a").last == #"{"t":0.05,"plugin":"a","status":"reloaded","version":2}"#)
    }

    @Test func theSameSwipeForApplicationsThatCannotBothHaveTheFocusIsNoConflict() throws {
        let swipe = { (apps: String) in #"motion.gesture(motion.swipe{fingers = 3, direction = "left", apps = \#(apps)}):emit("s")"# }
        let config = TestConfig([
            "a.lua": swipe(#""firefox""#),
            "b.lua": swipe(#"{"foot", "kitty"}"#),
            "c.lua": swipe(#"{"!firefox", "!foot", "!kitty"}"#),
            "d.lua": swipe(#""!chromium""#),
        ])
        let (host, diagnostics) = config.host()
        host.loadAll()
        // d admits firefox, foot and kitty: it shares each of a, b and c's applications.
        #expect(diagnostics.lines == ["d: warning: swipe fingers=3 direction=left is also bound by the plugin a: both act on it",
                                      "d: warning: swipe fingers=3 direction=left is also bound by the plugin b: both act on it",
                                      "d: warning: swipe fingers=3 direction=left is also bound by the plugin c: both act on it"])
    }

    /// `check`'s findings are said when a plugin loads and again when it reloads, under its
    /// name and at their priority, and kept for `ctl status`; an error-level one (an unknown
    /// key in a callback) does not stop the load.
    @Test func checkFindingsAreReportedAtLoadAndReload() throws {
        let config = TestConfig(["a.lua": """
            local s = motion.swipe{ fingers = 3, direction = "left" }
            motion.gesture(s):subscribe(function(g) if g.state == "ended" then motion.keys("ctlr+t") end end)
            motion.pointers():map(function(p) return p end)
            motion.gesture(motion.hold{ fingers = 2, duration = 30 }):subscribe(function(g) if g.state == "began" then motion.exec("no-such-program-xyz") end end)
            """])
        let (host, diagnostics) = config.host()
        host.loadAll()
        let a = try #require(host.plugin(named: "a"))
        let path = a.path
        #expect(a.state == .running)
        #expect(diagnostics.lines.count == 4)
        #expect(diagnostics.lines.first == "a: warning: a stream was built and never subscribed (\(path):3): nothing flows until s:subscribe(…) or s:emit(name)")
        #expect(diagnostics.lines.dropFirst().first?.hasPrefix("a: error: \(path):2: motion.keys(\"ctlr+t\"): unknown key name 'ctlr'") == true)
        #expect(Array(diagnostics.lines.suffix(2)) == [
            "a: warning: \(path):4: motion.exec: 'no-such-program-xyz' is not found in PATH (it would fail when the gesture fires)",
            "a: warning: \(path):4: duration 30 is 30 seconds: durations are in seconds (for 30 ms write 0.03)",
        ])
        #expect(host.status().first?.findings == diagnostics.lines.map { String($0.dropFirst("a: ".count)) })
        diagnostics.lines = []
        config.write("a.lua", #"motion.gesture(motion.hold{ fingers = 2 }):subscribe(function(g) if g.state == "began" then motion.exec("no-such-program-xyz") end end)"#)
        host.filesChanged([config.file("a.lua")])
        #expect(a.version == 2)
        #expect(diagnostics.lines == ["a: warning: \(path):1: motion.exec: 'no-such-program-xyz' is not found in PATH (it would fail when the gesture fires)"])
        #expect(host.status().first?.findings.count == 1)
    }

    @Test func twoPluginsBindingTheSameSwipeAreReported() throws {
        let config = TestConfig([
            "a.lua": #"motion.gesture(motion.swipe{fingers = 3, direction = "left"}):emit("a")"#,
            "b.lua": #"motion.gesture(motion.swipe{fingers = 3, direction = "left"}):emit("b")"#,
            "c.lua": #"motion.gesture(motion.swipe{fingers = 3, direction = "right"}):emit("c")"#,
        ])
        let (host, diagnostics) = config.host()
        host.loadAll()
        #expect(diagnostics.lines == ["b: warning: swipe fingers=3 direction=left is also bound by the plugin a: both act on it"])
        #expect(host.status().map(\.recognizers) == [["swipe fingers=3 direction=left"], ["swipe fingers=3 direction=left"],
                                                     ["swipe fingers=3 direction=right"]])
    }

    @Test func headerLimitsAreReadAndABadHeaderFailsTheLoad() throws {
        let limits = PluginLimits(timeout: 1, memoryMiB: 64)
        #expect(try limits.overridden(by: "-- a plugin\n--motionscript: timeout=0.25 memory=8\n").get()
                == PluginLimits(timeout: 0.25, memoryMiB: 8))
        #expect(try limits.overridden(by: "-- motionscript: memory=0").get() == PluginLimits(timeout: 1, memoryMiB: 0))
        let config = TestConfig(["a.lua": "-- motionscript: timeout=soon\n"])
        let (host, _) = config.host()
        host.loadAll()
        #expect(host.lines == [#"{"t":0,"plugin":"a","status":"failed","version":0,"error":"\#(config.file("a.lua")): header: timeout=soon: seconds >= 0 expected (0 = no limit)"}"#])
    }
}
