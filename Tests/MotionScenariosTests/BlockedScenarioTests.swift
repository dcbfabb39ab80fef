import Foundation
import Testing
import MotionScenarios
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `motionscript test` finishes even when a scenario blocks inside C, where neither the Lua hook
/// nor the checks between frames run: its worker is killed after the grace period.
@Suite struct BlockedScenarioTests {
    @Test func aScenarioBlockedOutsideLuaFailsAndTheBatchFinishes() throws {
        let folder = makeTemporaryFolder("blocked")
        let fifo = folder.appendingPathComponent("never").path
        #expect(mkfifo(fifo, 0o600) == 0)
        writeScenario("a-blocked", script: "local f = io.open('\(fifo)', 'r')\n", expected: "", in: folder)
        writeScenario("b-fine", script: "motion.emit('ok', 1)\n", expected: #"{"t":0,"name":"ok","value":1}"# + "\n", in: folder)
        // A FIFO as the expected file would block the batch itself: it is refused unread.
        writeScenario("c-fifo-expected", script: "motion.emit('ok', 1)\n", expected: nil, in: folder)
        #expect(mkfifo(folder.appendingPathComponent("c-fifo-expected.expected.jsonl").path, 0o600) == 0)

        // One worker: the blocked scenario must not keep the next one from running.
        let options = ScenarioOptions(jobs: 1, timeout: 0.2, workerExecutable: motionscriptBinary)
        let report = try ScenarioBatch(paths: [folder.path], options: options).run()
        #expect(report.lines.last == "1 passed, 2 failed")
        #expect(report.results[0].outcome == .error("timeout: still running 1 s after the time limit of 0.2 s (blocked outside Lua, e.g. in os.execute or io.read); killed with its child processes"))
        #expect(report.results[1].outcome == .passed)
        #expect(report.results[2].outcome == .error("cannot read \(folder.path)/c-fifo-expected.expected.jsonl: not a regular file"))
    }
}
