import Foundation
import Testing
import MotionTestSupport

/// The time limit cannot be caught from Lua (docs/reliability.md): a script that wraps its
/// work in pcall (or coroutines) is stopped at its limit and the run fails, where it used to
/// swallow each timeout, finish its loop and pass.
@Suite(.timeLimit(.minutes(5))) struct TimeLimitRunTests {
    /// 40 pieces of 50 ms of CPU each, every one under pcall: 2 s of work past a limit of 0.3 s.
    static let swallowing = """
        for i = 1, 40 do
          pcall(function() local t = os.clock() while os.clock() - t < 0.05 do end end)
        end
        motion.emit("survived", true)
        """

    @Test func runStopsAScriptThatSwallowsItsTimeLimitWithPcall() throws {
        let folder = makeTemporaryFolder("timelimit")
        let script = writeFile(Self.swallowing, "swallow.lua", in: folder)
        let r = try runMotionscript(["run", script, "--timeout", "0.3"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("swallow.lua:") && r.stderr.contains(": timeout: the script ran past its time limit"), "\(r.stderr)")
        #expect(!r.stdout.contains("survived"))
    }

    @Test func aScenarioThatSwallowsItsTimeLimitFails() throws {
        let folder = makeTemporaryFolder("timelimit")
        writeFile(Self.swallowing, "swallow.lua", in: folder)
        writeFile(shortDragEvents, "swallow.events.jsonl", in: folder)
        writeFile(#"{"t":0,"name":"survived","value":true}"# + "\n", "swallow.expected.jsonl", in: folder)
        let r = try runMotionscript(["test", folder.path, "--timeout", "0.3"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("0 passed, 1 failed"), "\(r.stdout)")
        #expect(r.stdout.contains("timeout: the script ran past its time limit"), "\(r.stdout)")
    }
}
