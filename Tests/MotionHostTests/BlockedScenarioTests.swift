import Foundation
import Testing
import MotionHost
#if canImport(Glibc)
import Glibc
#endif

/// `motionscript test` finishes even when a scenario blocks inside C, where neither the Lua hook
/// nor the checks between frames run.
@Suite struct BlockedScenarioTests {
    @Test func aScenarioBlockedOutsideLuaFailsAndTheBatchFinishes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blocked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("never").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let events = #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n"
        for name in ["a-blocked", "b-fine"] {
            try events.write(to: folder.appendingPathComponent("\(name).events.jsonl"), atomically: true, encoding: .utf8)
        }
        try "local f = io.open('\(fifo)', 'r')\n".write(to: folder.appendingPathComponent("a-blocked.lua"), atomically: true, encoding: .utf8)
        try "motion.emit('ok', 1)\n".write(to: folder.appendingPathComponent("b-fine.lua"), atomically: true, encoding: .utf8)
        try "".write(to: folder.appendingPathComponent("a-blocked.expected.jsonl"), atomically: true, encoding: .utf8)
        try #"{"t":0,"name":"ok","value":1}"#.appending("\n")
            .write(to: folder.appendingPathComponent("b-fine.expected.jsonl"), atomically: true, encoding: .utf8)

        // One worker: the blocked scenario must not keep the next one from running.
        let report = try ScenarioBatch(paths: [folder.path], options: ScenarioOptions(jobs: 1, timeout: 0.2)).run()
        #expect(report.lines.last == "1 passed, 1 failed")
        guard case .failed(let reason) = report.results[0].outcome else {
            Issue.record("expected the blocked scenario to fail")
            return
        }
        #expect(reason.contains("timeout: still running 2.0 s after the time limit of 0.2 s"))
        #expect(report.results[1].outcome == .passed)
    }
}
