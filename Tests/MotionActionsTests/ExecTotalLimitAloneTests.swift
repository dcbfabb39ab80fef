import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionActions

/// The whole process runs at most 64 `motion.exec` children at once (one descriptor each): the
/// 65th is not started, and the report says why. Run alone (`scripts/test`: *AloneTests): beside
/// the other tests, 65 started once in some seven runs under load (one of its children ended
/// early, freeing a place; what ended it is not found yet).
@Suite(.timeLimit(.minutes(2))) struct ExecTotalLimitAloneTests {
    final class Reports: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func theSixtyFifthRunningCommandIsRefusedAndReported() throws {
        let reports = Reports()
        let launcher = ProcessLauncher(report: { reports.add($0) }, reaper: ChildReaper())
        var pids: [pid_t] = []
        var refused = 0
        for _ in 0..<66 {
            if let pid = launcher.launch(["sleep", "30"]) { pids.append(pid) } else { refused += 1 }
        }
        defer { for pid in pids { kill(pid, SIGKILL) } }
        #expect(pids.count == 64)
        #expect(refused == 2)
        #expect(reports.all == Array(repeating: "motionscript: exec [sleep, 30]: not started: 64 commands started by motion.exec are still running (the most at once)", count: 2))
    }
}
