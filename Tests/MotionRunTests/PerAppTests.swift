import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionLua
import MotionTestSupport

/// docs/desktop.md, "Per-application gestures": `apps =`, `motion.app`, app lines and `--app` in runs.
@Suite struct PerAppTests {
    private func run(_ script: String, _ events: String, app: String? = nil) throws -> CollectedOutput {
        let folder = makeTemporaryFolder("app")
        var options = RunOptions(scriptPath: writeFile(script, "s.lua", in: folder),
                                 eventsPath: writeFile(events, "e.jsonl", in: folder))
        options.app = app
        let output = CollectedOutput()
        try Runner.run(options, output: output)
        return output
    }

    private let swipeRight = """
        {"t":1,"id":1,"phase":"down","x":0,"y":0}
        {"t":1.1,"id":1,"phase":"up","x":200,"y":0}

        """

    private let script = """
        local s = motion.swipe{fingers = 1, apps = {"Firefox", "!kitty"}}
        motion.gesture(s):subscribe(function(g)
          if g.state == "recognized" then motion.emit("swipe", g.app) end
        end)
        motion.emit("current", motion.app.current())
        motion.app.changes():subscribe(function(a) motion.emit("change", {id = a and a.id, now = motion.app.current() and motion.app.current().title}) end)
        """

    @Test func appLinesAreOutputAndDecideTheSwipe() throws {
        let output = try run(script, #"{"t":0,"app":{"id":"firefox","title":"Home","pid":7}}"# + "\n" + swipeRight)
        #expect(output.lines == [
            #"{"t":0,"name":"current","value":null}"#,
            #"{"t":0,"app":{"id":"firefox","title":"Home","pid":7}}"#,
            #"{"t":0,"name":"change","value":{"id":"firefox","now":"Home"}}"#,
            #"{"t":1.1,"name":"swipe","value":{"id":"firefox","pid":7,"title":"Home"}}"#,
        ])
        #expect(output.logLines == [])
    }

    @Test func theFixedAppDecidesAndLaterAppLinesAreIgnored() throws {
        let kitty = try run(script, #"{"t":0,"app":"firefox"}"# + "\n" + swipeRight, app: "KITTY")
        #expect(kitty.lines == [#"{"t":0,"name":"current","value":{"id":"KITTY"}}"#])
        let firefox = try run(script, swipeRight, app: "firefox")
        #expect(firefox.lines.last == #"{"t":0.1,"name":"swipe","value":{"id":"firefox"}}"#)
    }

    @Test func withoutAnyFocusTheSwipeDoesNotBeginAndOneWarningSaysWhy() throws {
        let output = try run(script, swipeRight + swipeRight.replacingOccurrences(of: "\"t\":1", with: "\"t\":2"))
        #expect(output.lines == [#"{"t":0,"name":"current","value":null}"#])
        #expect(output.logLines.count == 1)
        #expect(output.logLines.first?.contains("the focused application is unknown") == true)
    }

    @Test(arguments: [
        ("motion.swipe{apps = 3}", "motion.swipe: option 'apps' must be an application name (a leading '!' excludes it) or a list of them, got number"),
        ("motion.tap{apps = {}}", "motion.tap: option 'apps' must be an application name (a leading '!' excludes it) or a list of them, got table"),
        ("motion.hold{apps = \"!\"}", "motion.hold: option 'apps' has an empty application name"),
    ])
    func badAppsOptionsAreErrorsAtTheScriptLine(code: String, message: String) throws {
        #expect(throws: ScriptError.self) { try run(code, swipeRight) }
        do { _ = try run(code, swipeRight) } catch let error as ScriptError {
            #expect(error.message.contains("s.lua:1: " + message), "\(error.message)")
        }
    }
}

/// `test --app` and a scenario's `-- app:` line.
@Suite struct PerAppScenarioTests {
    private let script = """
        local s = motion.swipe{fingers = 1, apps = "firefox"}
        motion.gesture(s):subscribe(function(g) if g.state == "recognized" then motion.emit("swipe", g.app.id) end end)
        """
    private let events = """
        {"t":0,"id":1,"phase":"down","x":0,"y":0}
        {"t":0.1,"id":1,"phase":"up","x":200,"y":0}

        """

    @Test func aScenarioLineOrTestsOptionFixesTheAppAndTheLineWins() throws {
        let folder = makeTemporaryFolder("app-scenarios")
        writeFile("-- app: Firefox\n" + script, "declared.lua", in: folder)
        writeFile(events, "declared.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"Firefox"}"# + "\n", "declared.expected.jsonl", in: folder)
        writeFile(script, "option.lua", in: folder)
        writeFile(events, "option.events.jsonl", in: folder)
        writeFile(#"{"t":0.1,"name":"swipe","value":"firefox"}"# + "\n", "option.expected.jsonl", in: folder)
        var options = ScenarioOptions(workerExecutable: motionscriptBinary)
        options.app = "firefox"
        let report = try ScenarioBatch(paths: [folder.path], options: options).run()
        #expect(report.lines.last == "2 passed, 0 failed")
        // Without the option the undeclared one never swipes; with another app the declaration still wins.
        options.app = "kitty"
        let kitty = try ScenarioBatch(paths: [folder.path], options: options).run()
        #expect(kitty.results.map { "\($0.scenario.name) \($0.passed)" } == ["declared true", "option false"])
    }

    @Test func anEmptyAppDeclarationIsAnErrorNamingItsLine() throws {
        let folder = makeTemporaryFolder("app-scenario-bad")
        writeFile("-- app:\n" + script, "bad.lua", in: folder)
        writeFile(events, "bad.events.jsonl", in: folder)
        writeFile("", "bad.expected.jsonl", in: folder)
        let report = try ScenarioBatch(paths: [folder.path], options: ScenarioOptions(workerExecutable: motionscriptBinary)).run()
        #expect(report.results.first?.failureMessage?.contains("bad.lua:1: app needs a name") == true,
                "\(report.results.first?.failureMessage ?? "")")
    }
}
