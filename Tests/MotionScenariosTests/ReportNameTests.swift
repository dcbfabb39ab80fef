import Foundation
import Testing
import MotionScenarios
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Scenario names come from file names, which may hold any byte but `/` and NUL: the batch
/// reports printed ESC, BEL and CR raw (a name could drive the terminal) and a newline in a name
/// forged a report line of its own (`ok forged` for a failing scenario).
@Suite(.timeLimit(.minutes(5))) struct ReportNameTests {
    @Test func controlCharactersInNamesAreShownEscapedInTheTextReport() throws {
        let folder = makeTemporaryFolder("names")
        writeScenario("bad\nok      forged", script: "motion.emit('n', 2)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: folder)
        writeScenario("bell\u{7}esc\u{1B}[2Jcr\rend", script: "motion.emit('n', 1)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: folder)
        let r = try runMotionscript(["test", folder.path])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("ok      forged") }, "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"FAIL    bad\x0Aok      forged: output line 1 differs"#) }, "\(r.stdout)")
        // The diff's header names the expected file: one line too.
        #expect(lines.contains { $0.hasPrefix("        --- ") && $0.hasSuffix(#"/bad\x0Aok      forged.expected.jsonl"#) }, "\(r.stdout)")
        #expect(lines.contains(#"ok      bell\x07esc\x1B[2Jcr\x0Dend"#), "\(r.stdout)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(r.stdout)")
        #expect(r.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    }

    @Test func theJUnitReportShowsTheSameEscapedNames() throws {
        let folder = makeTemporaryFolder("names")
        writeScenario("a\u{1B}]0;x\u{7}\nb", script: "motion.emit('n', 1)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: folder)
        let junit = folder.appendingPathComponent("report.xml").path
        let r = try runMotionscript(["test", folder.path, "--junit", junit])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase name="a\x1B]0;x\x07\x0Ab" classname="scenarios" file=""#), "\(xml)")
    }

    @Test func messagesAreEscapedLineByLineKeepingTheTracebacksTabs() {
        let scenario = Scenario(name: "s", scriptPath: "s.lua", eventsPath: nil, expectedPath: "", hasExpected: false, problem: nil)
        let result = ScenarioResult(scenario: scenario, outcome: .error("script error: s.lua:1: \u{1B}[31mred\r\nstack traceback:\n\t[C]: in ?"), duration: 0)
        #expect(ScenarioReport([result]).lines == [
            #"FAIL    s: script error: s.lua:1: \x1B[31mred\x0D"#,
            "        stack traceback:",
            "        \t[C]: in ?",
            "0 passed, 1 failed",
        ])
    }

    /// A scenario whose NAME.lua is a folder vanished from the batch, which then passed.
    @Test func aScriptNameThatIsAFolderIsAnError() throws {
        let folder = makeTemporaryFolder("names")
        writeScenario("good", script: "motion.emit('n', 1)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("gone.lua"), withIntermediateDirectories: false)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n", "gone.events.jsonl", in: folder)
        writeFile(#"{"t":0,"name":"n","value":1}"# + "\n", "gone.expected.jsonl", in: folder)
        // A FIFO in a script's place is reported too (opening it would wait for a writer).
        #expect(mkfifo(folder.appendingPathComponent("pipe.lua").path, 0o644) == 0)
        writeFile("", "pipe.expected.jsonl", in: folder)
        // A folder named like a script with no scenario files beside it is only a folder.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lib.lua"), withIntermediateDirectories: false)
        let r = try runMotionscript(["test", folder.path])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stdout == """
            FAIL    gone: gone.lua is a folder, not a script file
            ok      good
            FAIL    pipe: pipe.lua is a FIFO, not a script file
            1 passed, 2 failed

            """, "\(r.stdout)")
    }
}
