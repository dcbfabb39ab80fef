import Foundation
import Testing
@testable import MotionActions

/// Collects what the launcher reports, from its reaper threads.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }

    /// Waits (a hang guard, not a timing assertion) until `count` lines came.
    func wait(for count: Int) -> [String] {
        for _ in 0..<1000 where all.count < count { usleep(10_000) }
        return all
    }
}

@Suite struct ProcessLauncherTests {
    @Test func aFailingCommandIsReportedNotFatal() {
        let reports = Reports()
        let launcher = ProcessLauncher(report: reports.add)
        #expect(launcher.launch(["sh", "-c", "exit 3"]) != nil)
        #expect(reports.wait(for: 1) == ["motionscript: exec [sh, -c, \"exit 3\"]: exited with status 3"])
    }

    @Test func aCommandThatCannotStartIsReported() {
        let reports = Reports()
        #expect(ProcessLauncher(report: reports.add).launch(["no-such-program-motionscript"]) == nil)
        #expect(reports.all == ["motionscript: exec [no-such-program-motionscript]: cannot start: No such file or directory"])
        #expect(ProcessLauncher(report: reports.add).launch([]) == nil)
        #expect(reports.all.last == "motionscript: exec: no command to run")
    }

    @Test func childrenAreReaped() throws {
        let reports = Reports()
        let pid = try #require(ProcessLauncher(report: reports.add).launch(["true"]))
        // A zombie still answers kill(pid, 0); a reaped child does not.
        var gone = false
        for _ in 0..<1000 {
            if kill(pid, 0) != 0 && errno == ESRCH { gone = true; break }
            usleep(10_000)
        }
        #expect(gone)
        #expect(reports.all.isEmpty)
    }

    @Test func aChildInheritsNoOtherDescriptor() throws {
        let reports = Reports()
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)  // no O_CLOEXEC: inherited unless the launcher closes it
        try #require(fd > 2)
        defer { close(fd) }
        let command = "[ -e /proc/self/fd/\(fd) ] && exit 7; exit 3"
        ProcessLauncher(report: reports.add).launch(["sh", "-c", command])
        #expect(reports.wait(for: 1) == ["motionscript: exec [sh, -c, \"\(command)\"]: exited with status 3"])
    }

    @Test func aChildRunsInItsOwnProcessGroup() throws {
        let reports = Reports()
        let pid = try #require(ProcessLauncher(report: reports.add).launch(["sleep", "5"]))
        defer { kill(pid, SIGKILL) }
        #expect(getpgid(pid) == pid)
        #expect(getpgid(pid) != getpgrp())
    }
}
