import Foundation
import Testing
import MotionTestSupport

/// What `motionscript test` reports, through the binary: JUnit a CI reads correctly, a diff to
/// act on, and exit 2 when the batch cannot mean anything.
@Suite(.timeLimit(.minutes(5))) struct BatchReportTests {
    @Test func junitSeparatesErrorsFromFailuresAndKeepsEachScenariosOutput() throws {
        let folder = makeTemporaryFolder("junit")
        writeScenario("a-pass", script: "print('hello', 1)\nmotion.emit('ok', 1)\n", expected: #"{"t":0,"name":"ok","value":1}"# + "\n", in: folder)
        writeScenario("b-mismatch", script: "motion.emit('ok', 2)\n", expected: #"{"t":0,"name":"ok","value":1}"# + "\n", in: folder)
        writeScenario("c-error", script: "io.stderr:write('about to fail\\n')\nerror('boom')\n", expected: "", in: folder)
        writeScenario("d-timeout", script: "while true do end\n", expected: "", in: folder)
        // A MiB a step: the cap is reached in a few steps, far inside the time limit even under
        // ASan and load (small tables took longer than 0.5 s there and ended in a timeout).
        writeScenario("e-memory", script: "local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1 << 20) .. i end\n", expected: "", in: folder)
        writeScenario("f-log", script: "motion.property(5):log('p'):subscribe(function() end)\n", expected: "", in: folder)
        let junit = folder.appendingPathComponent("report.xml").path
        let r = try runMotionscript(["test", folder.path, "--junit", junit, "--timeout", "0.5", "--memory", "16"])
        #expect(r.status == 1)
        #expect(r.stdout.hasSuffix("\n2 passed, 4 failed\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let lines = xml.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix(#"<testsuites tests="6" failures="1" errors="3" skipped="0" time=""#), "\(lines[1])")
        // ISO 8601 start time, in UTC.
        #expect(lines[2].range(of: #"^  <testsuite name="motionscript" tests="6" failures="1" errors="3" skipped="0" time="\d+\.\d{3}" timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">$"#,
                               options: .regularExpression) != nil, "\(lines[2])")
        #expect(xml.contains("""
                <testcase name="a-pass" classname="scenarios" file="\(folder.path)/a-pass.lua" time=
            """))
        #expect(xml.contains("""
                  <system-out>{"t":0,"name":"ok","value":1}
            </system-out>
                  <system-err>hello\t1
            </system-err>
            """))
        #expect(xml.contains(#"<failure message="output line 1 differs" type="mismatch">"#))
        // Lua shortens a long script path to its end.
        #expect(xml.range(of: #"<error message="script error: [^"]*c-error.lua:2: boom" type="script error">"#, options: .regularExpression) != nil, "\(xml)")
        #expect(xml.contains("<system-err>about to fail\n</system-err>"))
        #expect(xml.contains(#"<error message="timeout: stopped after the time limit of 0.5 s"#))
        #expect(xml.contains(#"<error message="out of memory: the script exceeded its memory limit of 16 MiB"#))
        // `log` goes where `run` sends it: stderr.
        #expect(xml.contains("<system-err>p 5\n</system-err>"))
    }

    @Test func aFailingScenarioShowsAUnifiedDiff() throws {
        let folder = makeTemporaryFolder("diff")
        let expected = (1...8).map { #"{"t":0,"name":"n","value":\#($0)}"# }.joined(separator: "\n") + "\n"
        writeScenario("counts", script: """
            for i = 1, 8 do
              if i ~= 4 then motion.emit('n', i == 6 and 60 or i) end
            end
            motion.emit('n', 9)
            """, expected: expected, in: folder)
        let r = try runMotionscript(["test", folder.path])
        #expect(r.status == 1)
        #expect(r.stdout == """
            FAIL    counts: output line 4 differs
                    --- \(folder.path)/counts.expected.jsonl
                    +++ actual output
                    @@ -1,8 +1,8 @@
                     {"t":0,"name":"n","value":1}
                     {"t":0,"name":"n","value":2}
                     {"t":0,"name":"n","value":3}
                    -{"t":0,"name":"n","value":4}
                     {"t":0,"name":"n","value":5}
                    -{"t":0,"name":"n","value":6}
                    +{"t":0,"name":"n","value":60}
                     {"t":0,"name":"n","value":7}
                     {"t":0,"name":"n","value":8}
                    +{"t":0,"name":"n","value":9}
            0 passed, 1 failed

            """, "\(r.stdout)")
    }

    @Test func anUnwritableJUnitPathFailsBeforeTheBatchRuns() throws {
        let folder = makeTemporaryFolder("unwritable")
        let marker = folder.appendingPathComponent("ran").path
        writeScenario("marks", script: "io.open('\(marker)', 'w'):close()\n", expected: "", in: folder)
        let r = try runMotionscript(["test", folder.path, "--junit", "/nonexistent-folder/report.xml"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot write the JUnit report /nonexistent-folder/report.xml"), "\(r.stderr)")
        #expect(r.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func aFolderWithNoScenariosExits2() throws {
        let empty = makeTemporaryFolder("empty")
        let r = try runMotionscript(["test", empty.path])
        #expect(r.status == 2)
        #expect(r.stderr == "motionscript: no scenarios found in \(empty.path)\n")
        // Modules only: nothing would be tested either.
        let modules = makeTemporaryFolder("modules")
        writeFile("return {}\n", "helper.lua", in: modules)
        #expect(try runMotionscript(["test", modules.path]).status == 2)
        // A filter that matches nothing is the same mistake.
        writeScenario("drag", script: "motion.emit('ok', 1)\n", expected: #"{"t":0,"name":"ok","value":1}"# + "\n", in: modules)
        let junit = modules.appendingPathComponent("report.xml").path
        let filtered = try runMotionscript(["test", modules.path, "--filter", "pinch", "--junit", junit])
        #expect(filtered.status == 2)
        #expect(filtered.stderr == "motionscript: no scenarios found in \(modules.path) (after --filter/--shard)\n")
        // No empty report is left behind for CI to read as "0 tests".
        #expect(!FileManager.default.fileExists(atPath: junit))
    }
}
