import Foundation
import MotionJSON
import MotionScenarios
import Testing
import MotionTestSupport

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Options whose worker processes are the built motionscript binary.
func workerOptions(update: Bool = false) -> ScenarioOptions {
    ScenarioOptions(update: update, workerExecutable: motionscriptBinary)
}

/// `motionscript test` through the library: discovery, outcomes, reports.
@Suite struct ScenarioTests {
    @Test func theExampleScenariosAllPass() throws {
        let report = try ScenarioBatch(paths: [root.appendingPathComponent("examples/scenarios").path], options: workerOptions()).run()
        #expect(report.results.map(\.scenario.name) == ["alt-tab", "desktop", "drag", "drag-no-threshold", "elements/scaled", "emit-map",
                                                          "pads/default-thresholds", "pads/defaults-pad12", "pads/defaults-pad30",
                                                          "pads/desktop-pad12", "pads/desktop-pad30", "per-app", "pinch-evemu", "pinch-libinput", "pinch-raw", "pinch-zoom-keys",
                                                          "proxy/desktop-swipes", "proxy/grab-while-finger-down", "proxy/late-fourth-finger",
                                                          "proxy/phantom-click-4-finger-tail", "proxy/resting-thumb", "proxy/staggered-lifts",
                                                          "proxy/syn-dropped-mid-touch", "proxy/three-finger-drag", "proxy/two-finger-swipe-vs-scroll",
                                                          "scenario_helper", "two-devices"])
        for result in report.results where result.failureMessage != nil {
            Issue.record("\(result.scenario.name): \(result.failureMessage!)")
        }
        #expect(report.lines.last == "25 passed, 0 failed, 2 skipped")
        #expect(report.exitCode == 0)
    }

    /// A batch with every kind of outcome; the bad ones fail with their reason, the rest run.
    @Test func aMixedBatchReportsEachScenarioAndKeepsGoing() throws {
        let folder = makeTemporaryFolder("scenarios")
        let drag = try String(contentsOf: root.appendingPathComponent("examples/scenarios/drag.lua"), encoding: .utf8)
        let events = try String(contentsOf: root.appendingPathComponent("examples/scenarios/drag.events.jsonl"), encoding: .utf8)
        let expected = try String(contentsOf: root.appendingPathComponent("examples/scenarios/drag.expected.jsonl"), encoding: .utf8)
        func scenario(_ name: String, script: String = drag, events: String? = events, expected: String? = expected) {
            writeFile(script, name + ".lua", in: folder)
            if let events { writeFile(events, name + ".events.jsonl", in: folder) }
            if let expected { writeFile(expected, name + ".expected.jsonl", in: folder) }
        }
        scenario("a-pass")
        // Keys in another order, numbers printed differently and off by less than 1e-9.
        scenario("b-same-json", expected: expected
            .replacingOccurrences(of: #"{"t":0.048,"name":"position","value":{"x":120,"y":215}}"#,
                                  with: #"{"value":{"y":215.0000000001,"x":1.2e2},"name":"position","t":0.048}"#))
        scenario("c-wrong-line", expected: expected.replacingOccurrences(of: #""x":120"#, with: #""x":121"#))
        scenario("d-short-output", expected: expected + #"{"t":1,"name":"position","value":true}"# + "\n")
        scenario("e-no-expected", expected: nil)
        scenario("f-no-events", events: nil)
        scenario("g-not-json", expected: #"{"t":0,"name":"position","value":{"x":100,"y":200}}"# + "\n\n{oops\n")
        scenario("h-forever", script: "while true do end\n")
        scenario("i-memory", script: "local t = {}\nfor i = 1, 1e9 do t[i] = {i} end\n")
        scenario("j-error", script: "motion.emit('before', 1)\nerror('bad scenario')\n")
        scenario("k-module", script: "return {}\n", events: nil, expected: nil)
        scenario("m-chatty", script: "while true do motion.emit('x', 1) end\n")
        scenario("l-true-is-not-1", script: "motion.emit('v', true)\n", expected: #"{"t":0,"name":"v","value":1}"# + "\n")

        // A small memory limit, so the memory scenario reaches it in milliseconds however slow the build
        // (AddressSanitizer) or the machine, well inside the time limit.
        let options = ScenarioOptions(jobs: 3, timeout: 1, memoryLimit: 4 << 20, maxOutputLines: 1000, workerExecutable: motionscriptBinary)
        let report = try ScenarioBatch(paths: [folder.path], options: options).run()
        let outcomes = Dictionary(uniqueKeysWithValues: report.results.map { ($0.scenario.name, $0.outcome) })
        #expect(outcomes["a-pass"] == .passed)
        #expect(outcomes["b-same-json"] == .passed)
        #expect(outcomes["c-wrong-line"] == .failed("""
            output line 3 differs
            --- \(folder.path)/c-wrong-line.expected.jsonl
            +++ actual output
            @@ -1,5 +1,5 @@
             {"t":0,"name":"position","value":{"x":100,"y":200}}
             {"t":0.032,"name":"position","value":{"x":112,"y":209}}
            -{"t":0.048,"name":"position","value":{"x":121,"y":215}}
            +{"t":0.048,"name":"position","value":{"x":120,"y":215}}
             {"t":0.216,"name":"position","value":{"x":110,"y":215}}
             {"t":0.232,"name":"position","value":{"x":108,"y":215}}
            """))
        #expect(outcomes["d-short-output"] == .failed("""
            output ended early (5 lines, 6 expected)
            --- \(folder.path)/d-short-output.expected.jsonl
            +++ actual output
            @@ -3,4 +3,3 @@
             {"t":0.048,"name":"position","value":{"x":120,"y":215}}
             {"t":0.216,"name":"position","value":{"x":110,"y":215}}
             {"t":0.232,"name":"position","value":{"x":108,"y":215}}
            -{"t":1,"name":"position","value":true}
            """))
        #expect(outcomes["e-no-expected"] == .error("missing expected file e-no-expected.expected.jsonl (create it with --update)"))
        #expect(outcomes["f-no-events"] == .error("missing events file: f-no-events.events.jsonl, .evemu, .yml or .raw beside f-no-events.lua"))
        #expect(outcomes["g-not-json"] == .error("\(folder.path)/g-not-json.expected.jsonl:3: not JSON Lines: byte 1: expected a string key, found 'o'"))
        let forever = report.results.first { $0.scenario.name == "h-forever" }?.failureMessage ?? ""
        #expect(forever.hasPrefix("timeout: stopped after the time limit of 1 s ("), "\(forever)")
        #expect(forever.contains("h-forever.lua:1: timeout"))
        let memory = report.results.first { $0.scenario.name == "i-memory" }?.failureMessage ?? ""
        #expect(memory.hasPrefix("out of memory: the script exceeded its memory limit of 4 MiB ("), "\(memory)")
        let error = report.results.first { $0.scenario.name == "j-error" }?.failureMessage ?? ""
        #expect(error.hasPrefix("script error: ") && error.contains("j-error.lua:2: bad scenario"))
        #expect(outcomes["k-module"] == .skipped("no events or expected file beside it (a module?)"))
        #expect(outcomes["l-true-is-not-1"] == .failed("""
            output line 1 differs
            --- \(folder.path)/l-true-is-not-1.expected.jsonl
            +++ actual output
            @@ -1,1 +1,1 @@
            -{"t":0,"name":"v","value":1}
            +{"t":0,"name":"v","value":true}
            """))

        // The scenario runs in its folder: paths in its messages are relative to it.
        #expect(outcomes["m-chatty"] == .error("too much output: m-chatty.lua: the output exceeded 1000 lines"))

        #expect(report.lines.last == "2 passed, 10 failed, 1 skipped")
        #expect(report.exitCode == 1)
        #expect(report.lines.contains("FAIL    c-wrong-line: output line 3 differs"))
        #expect(report.lines.contains(#"        -{"t":0.048,"name":"position","value":{"x":121,"y":215}}"#))
        #expect(report.lines.contains("ok      a-pass"))
        #expect(report.lines.contains("skip    k-module: no events or expected file beside it (a module?)"))
    }

    @Test func updateWritesExpectedFilesThatThenPass() throws {
        let folder = makeTemporaryFolder("update")
        writeFile("motion.pointers():map(function(p) return p.x * 2 end):emit('x')\n", "double.lua", in: folder)
        writeFile(shortDragEvents, "double.events.jsonl", in: folder)
        writeFile("motion.emit('n', 1)\n", "stale.lua", in: folder)
        writeFile(shortDragEvents, "stale.events.jsonl", in: folder)
        writeFile(#"{"t":0,"name":"n","value":2}"# + "\n", "stale.expected.jsonl", in: folder)
        let updated = try ScenarioBatch(paths: [folder.path], options: workerOptions(update: true)).run()
        #expect(updated.results.map(\.outcome) == [.updated, .updated])
        #expect(try String(contentsOfFile: folder.path + "/double.expected.jsonl", encoding: .utf8) == """
            {"t":0,"name":"x","value":20}
            {"t":0.016,"name":"x","value":44}
            {"t":0.032,"name":"x","value":60}
            {"t":0.048,"name":"x","value":60}

            """)
        #expect(try String(contentsOfFile: folder.path + "/stale.expected.jsonl", encoding: .utf8) == #"{"t":0,"name":"n","value":1}"# + "\n")
        let again = try ScenarioBatch(paths: [folder.path], options: workerOptions()).run()
        #expect(again.summaryLine == "2 passed, 0 failed")
        // Unchanged output: --update reports a plain pass and leaves the file alone.
        #expect(try ScenarioBatch(paths: [folder.path], options: workerOptions(update: true)).run().results.map(\.outcome)
                == [.passed, .passed])
    }

    @Test func shardsPartitionTheScenariosAndFiltersSelectByName() throws {
        let folder = makeTemporaryFolder("shards")
        let names = ["tap", "drag-a", "drag-b", "pinch", "rotate", "sub/drag-c", "sub/scale"]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in names {
            writeFile("motion.emit('ok', true)\n", name + ".lua", in: folder)
            writeFile(shortDragEvents, name + ".events.jsonl", in: folder)
            writeFile(#"{"t":0,"name":"ok","value":true}"# + "\n", name + ".expected.jsonl", in: folder)
        }
        let all = try ScenarioBatch(paths: [folder.path]).select().map(\.name)
        #expect(all == names.sorted())
        var seen: [String] = []
        for index in 1...3 {
            let shard = try ScenarioBatch(paths: [folder.path], shard: (index, 3)).select().map(\.name)
            #expect(shard.count >= 2 && shard.count <= 3)
            #expect(Set(shard).isDisjoint(with: seen))
            seen += shard
        }
        #expect(seen.sorted() == all)
        #expect(try ScenarioBatch(paths: [folder.path], options: workerOptions(), shard: (2, 3)).run().summaryLine == "2 passed, 0 failed")

        #expect(try ScenarioBatch(paths: [folder.path], filter: "drag").select().map(\.name) == ["drag-a", "drag-b", "sub/drag-c"])
        #expect(try ScenarioBatch(paths: [folder.path], filter: "sub/*").select().map(\.name) == ["sub/drag-c", "sub/scale"])
        #expect(try ScenarioBatch(paths: [folder.path], filter: "?a?").select().map(\.name) == ["tap"])

        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2"] {
            #expect(throws: ScenarioUsageError.self) { try ScenarioSelection.parseShard(bad) }
        }
        #expect(try ScenarioSelection.parseShard("3/3") == (3, 3))
        #expect(throws: ScenarioUsageError.self) { try ScenarioBatch(paths: [folder.path + "/nothing"]).select() }
    }

    /// A renamed or deleted script leaves its expected file behind: reported, not forgotten.
    @Test func anExpectedFileWithoutItsScriptIsReported() throws {
        let folder = makeTemporaryFolder("orphan")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        writeFile(#"{"t":0,"name":"ok","value":1}"# + "\n", "sub/gone.expected.jsonl", in: folder)
        writeFile(shortDragEvents, "sub/gone.events.jsonl", in: folder)
        let scenarios = try ScenarioBatch(paths: [folder.path]).select()
        #expect(scenarios.map(\.name) == ["sub/gone"])
        #expect(scenarios.first?.problem == .fail("gone.expected.jsonl has no script gone.lua beside it"))
        let report = try ScenarioBatch(paths: [folder.path], options: workerOptions()).run()
        #expect(report.lines == ["FAIL    sub/gone: gone.expected.jsonl has no script gone.lua beside it", "0 passed, 1 failed"])
    }

    @Test func junitReportHasCountsACasePerScenarioAndFailureMessages() throws {
        let scenario = { (name: String) in
            Scenario(name: name, scriptPath: "s/\(name).lua", eventsPath: "s/\(name).events.jsonl",
                     expectedPath: "s/\(name).expected.jsonl", hasExpected: true)
        }
        let xml = JUnitReport.xml([
            ScenarioResult(scenario: scenario("drag"), outcome: .passed, duration: 0.0123),
            ScenarioResult(scenario: scenario("x<&>"), outcome: .failed("output line 2 differs\n  expected: {\"a\":1}"), duration: 1.5,
                           stdout: "{\"a\":2}\n", stderr: "debug <1>\n"),
            ScenarioResult(scenario: scenario("helper"), outcome: .skipped("a module"), duration: 0),
            ScenarioResult(scenario: scenario("boom"), outcome: .error("script error: s/boom.lua:1: boom\nstack traceback:"), duration: 0.25),
        ], wallTime: 1.0, timestamp: Date(timeIntervalSince1970: 0))
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="4" failures="1" errors="1" skipped="1" time="1.000">
              <testsuite name="motionscript" tests="4" failures="1" errors="1" skipped="1" time="1.000" timestamp="1970-01-01T00:00:00Z">
                <testcase name="drag" classname="scenarios" file="s/drag.lua" time="0.012"/>
                <testcase name="x&lt;&amp;&gt;" classname="scenarios" file="s/x&lt;&amp;&gt;.lua" time="1.500">
                  <failure message="output line 2 differs" type="mismatch">output line 2 differs
              expected: {"a":1}</failure>
                  <system-out>{"a":2}
            </system-out>
                  <system-err>debug &lt;1&gt;
            </system-err>
                </testcase>
                <testcase name="helper" classname="scenarios" file="s/helper.lua" time="0.000">
                  <skipped message="a module"/>
                </testcase>
                <testcase name="boom" classname="scenarios" file="s/boom.lua" time="0.250">
                  <error message="script error: s/boom.lua:1: boom" type="script error">script error: s/boom.lua:1: boom
            stack traceback:</error>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }
}

@Suite struct OutputComparisonTests {
    @Test(arguments: [
        (#"{"a":1,"b":[true,null,"x"]}"#, #"{"b":[true,null,"x"],"a":1.0}"#, true),
        ("0.3", "0.30000000000000004", true),
        ("1e21", "1.0000000000001e21", true),
        ("0.3", "0.3000001", false),
        ("1", "true", false),
        (#"{"a":1}"#, #"{"a":1,"b":2}"#, false),
        (#""\u00e9\ud83d\ude00""#, #""é😀""#, true),
        ("[1,2]", "[2,1]", false),
    ])
    func structuralComparison(a: String, b: String, same: Bool) throws {
        #expect(OutputComparison.matches(try JSONValue.parse(a), try JSONValue.parse(b)) == same)
    }

    @Test(arguments: ["{", "[1,]", "tru", "\"abc", "1 2", "{'a':1}", "01x"])
    func malformedJSONIsRejected(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }
}

/// The exact rules for expected files: what counts as a line, a number, a match.
@Suite struct ExpectedFileRulesTests {
    @Test func aNumberThatOverflowsIsAnErrorNotInfinity() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse("1e400") }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse("[-1e309]") }
        #expect(throws: ExpectedFileError.self) {
            try OutputComparison.parseExpected(#"{"t":0,"name":"x","value":1e400}"# + "\n", file: "x.expected.jsonl")
        }
        // Underflow rounds to zero, as any decimal rounds to the nearest double.
        #expect(try JSONValue.parse("1e-400") == .number(0))
        // Had it parsed, infinity would have matched any number.
        #expect(!OutputComparison.matches(.number(.infinity), .number(5)))
    }

    @Test func crlfLineEndsAndALeadingBOMAreAccepted() throws {
        let lines = try OutputComparison.parseExpected("\u{FEFF}{\"a\":1}\r\n\r\n[2]\r\n", file: "x")
        #expect(lines.map(\.value) == [.object(["a": .number(1)]), .array([.number(2)])])
        #expect(lines.map(\.line) == [1, 3])
        #expect(lines.map(\.text) == [#"{"a":1}"#, "[2]"])
    }

    @Test func duplicateKeysAndUnpairedSurrogatesAreErrors() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#""\ud800""#) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#""\udc00x""#) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#""\ud800\u0041""#) }
        // Found by fuzzing the comparator: a high surrogate followed by an escape that is not a low one.
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#""\uDAAA\uAAAA""#) }
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func anExpectedLineThatIsNotUTF8NamesItsLine() throws {
        let bytes = Array("{\"a\":1}\n\"".utf8) + [0xFF] + Array("\"\n".utf8)
        #expect {
            try OutputComparison.parseExpected(bytes: bytes, file: "x.expected.jsonl")
        } throws: { ($0 as? ExpectedFileError)?.description == "x.expected.jsonl:2: not valid UTF-8" }
    }

    @Test func reportsAreCapped() {
        let huge = String(repeating: "x", count: 1_000_000)
        let diff = OutputComparison.difference(expected: try! OutputComparison.parseExpected("\"y\"\n", file: "e"),
                                               actual: ["\"" + huge + "\""], expectedFile: "e") ?? ""
        #expect(diff.utf8.count < 2_000)
        #expect(diff.contains("(1000002 bytes in all)"))
        let many = (1...500).map { "\($0)" }
        let long = OutputComparison.difference(expected: [], actual: many, expectedFile: "e") ?? ""
        #expect(long.split(separator: "\n").count <= OutputComparison.maxDiffLines + 5)
        #expect(long.hasSuffix("… 441 more lines of diff"), "\(long.suffix(80))")
    }

    @Test func theSuiteTimeIsTheWallTimeNotTheSumOfTheCases() {
        let scenario = Scenario(name: "a", scriptPath: "a.lua", eventsPath: "a.events.jsonl", expectedPath: "a.expected.jsonl", hasExpected: true)
        let results = [ScenarioResult(scenario: scenario, outcome: .passed, duration: 1.5),
                       ScenarioResult(scenario: scenario, outcome: .passed, duration: 1.5)]
        let xml = JUnitReport.xml(results, wallTime: 1.75, timestamp: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(xml.contains(#"<testsuite name="motionscript" tests="2" failures="0" errors="0" skipped="0" time="1.750" timestamp="2027-01-15T08:00:00Z">"#), "\(xml)")
    }
}
