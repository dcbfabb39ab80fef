import Foundation
import Testing
import MotionTestSupport

/// A bad expected file is the scenario's error whatever the script does, though a passing
/// scenario is compared byte for byte without the file being parsed.
@Suite(.timeLimit(.minutes(5))) struct ExpectedFileCheckTests {
    private let line1 = #"{"t":0,"name":"a","value":1}"#
    private let bad = #"{"t":0,"name":"x","value":1e400}"#

    @Test func aBadLineAfterMatchingOnesIsTheError() throws {
        let folder = makeTemporaryFolder("expected-bad")
        writeScenario("after", script: "motion.emit('a', 1)\n", expected: line1 + "\n" + bad + "\n", in: folder)
        let r = try runMotionscript(["test", folder.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("after.expected.jsonl:2: not JSON Lines"), "\(r.stdout)")
    }

    @Test func aBadLineIsTheErrorWhenTheScriptFailsBeforeIt() throws {
        let folder = makeTemporaryFolder("expected-bad-script")
        writeScenario("raises", script: "motion.emit('a', 1)\nerror('boom')\n", expected: line1 + "\n" + bad + "\n", in: folder)
        writeScenario("blocks", script: "motion.emit('a', 1)\nwhile true do end\n", expected: line1 + "\n" + bad + "\n", in: folder)
        let r = try runMotionscript(["test", folder.path, "--timeout", "0.5"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("raises.expected.jsonl:2: not JSON Lines"), "\(r.stdout)")
        #expect(r.stdout.contains("blocks.expected.jsonl:2: not JSON Lines"), "\(r.stdout)")
        #expect(!r.stdout.contains("boom"))
    }

    @Test func outputWithTheSameBytesPassesAndOneLineMoreOrLessFails() throws {
        let folder = makeTemporaryFolder("expected-bytes")
        writeScenario("same", script: "motion.emit('a', 1)\n", expected: line1 + "\n", in: folder)
        writeScenario("more", script: "motion.emit('a', 1)\nmotion.emit('a', 1)\n", expected: line1 + "\n", in: folder)
        writeScenario("less", script: "motion.emit('a', 1)\n", expected: line1 + "\n" + line1 + "\n", in: folder)
        // The same values spelled otherwise still match, as JSON.
        writeScenario("spelled", script: "motion.emit('a', 1)\n", expected: #"{ "value": 1.0, "name": "a", "t": 0 }"# + "\n", in: folder)
        let r = try runMotionscript(["test", folder.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("ok      same"), "\(r.stdout)")
        #expect(r.stdout.contains("ok      spelled"), "\(r.stdout)")
        #expect(r.stdout.contains("FAIL    more"), "\(r.stdout)")
        #expect(r.stdout.contains("FAIL    less"), "\(r.stdout)")
        #expect(r.stdout.contains("2 passed, 2 failed"), "\(r.stdout)")
    }
}
