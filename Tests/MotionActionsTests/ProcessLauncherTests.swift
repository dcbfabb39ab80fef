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

@Suite(.timeLimit(.minutes(5))) struct ProcessLauncherTests {
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

    /// The command as reports show it: arguments with a space, and empty ones, in quotes; the
    /// text is made only for a report, and stays what it was.
    @Test func reportsShowTheCommandWithQuotedArguments() {
        let reports = Reports()
        let launcher = ProcessLauncher(report: reports.add)
        #expect(launcher.launch(["sh", "-c", "exit 4", "", "a b", "c"]) != nil)
        #expect(reports.wait(for: 1) == [#"motionscript: exec [sh, -c, "exit 4", "", "a b", c]: exited with status 4"#])
        #expect(launcher.launch(["sh", "-c", "kill -9 $$"]) != nil)
        #expect(reports.wait(for: 2).last == #"motionscript: exec [sh, -c, "kill -9 $$"]: killed by signal 9"#)
        #expect(launcher.launch(["no such program motionscript", ""]) == nil)
        #expect(reports.all.last == #"motionscript: exec ["no such program motionscript", ""]: cannot start: No such file or directory"#)
        #expect(ProcessLauncher.show(["x", " ", "é", "tab\there"]) == #"[x, " ", é, tab\#there]"#)
    }

    /// The arguments reach the child byte for byte (long ones, non-ASCII ones, empty ones).
    @Test func argumentsReachTheChildWhole() {
        let reports = Reports()
        let long = String(repeating: "é", count: 300)
        let argv = ["sh", "-c", #"[ "$1" = "$2" ] && [ -z "$3" ] && [ ${#1} -gt 300 ] && exit 9; exit 1"#, "sh", long, long, ""]
        #expect(ProcessLauncher(report: reports.add).launch(argv) != nil)
        #expect(reports.wait(for: 1).first?.hasSuffix("exited with status 9") == true)
    }

    /// Without pidfd_open (kernels before 5.3, valgrind 3.19) children are watched through
    /// SIGCHLD by the same one thread: every child reaped, its status reported, no thread per
    /// child, no child of someone else taken, and no wake-up without a signal or a launch.
    @Test func withoutPidfdOneThreadReapsEveryChildAndOnlyOurs() throws {
        let reaper = ChildReaper(openPidfd: { _ in
            errno = ENOSYS
            return -1
        })
        let reports = Reports()
        let launcher = ProcessLauncher(report: reports.add, reaper: reaper)
        // A child that is not ours, ended and not yet reaped: it must stay for its owner.
        var foreign: pid_t = 0
        try #require(posix_spawnp(&foreign, "true", nil, nil, [strdup("true"), nil], environ) == 0)
        var info = siginfo_t()
        try #require(waitid(P_PID, id_t(foreign), &info, WEXITED | WNOWAIT) == 0)

        var pids: [pid_t] = []
        for _ in 0..<40 { pids.append(try #require(launcher.launch(["true"]))) }
        pids.append(try #require(launcher.launch(["sh", "-c", "exit 5"])))
        for _ in 0..<2000 where reaper.reaped < pids.count { usleep(5_000) }  // a hang guard
        #expect(reaper.reaped == pids.count)
        #expect(reaper.waiting == 0)
        #expect(reaper.threadsStarted == 1)
        #expect(pids.allSatisfy { kill($0, 0) != 0 && errno == ESRCH })
        #expect(reports.all == [#"motionscript: exec [sh, -c, "exit 5"]: exited with status 5"#])

        // No busy loop: with the foreign zombie still there, the thread wakes only when a byte
        // came (a SIGCHLD of anyone's child in this process: other tests launch too).
        let (wakeUps, signals) = (reaper.wakeUps, ChildSignal.received)
        usleep(50_000)  // a busy loop would spin here
        #expect(reaper.wakeUps - wakeUps <= ChildSignal.received - signals + 1)
        var status: Int32 = 0
        #expect(waitpid(foreign, &status, WNOHANG) == foreign)
    }

    /// One command launched many times (what motion.exec does for a repeated command): each
    /// launch is its own child, reaped and reported, while the command stays as it was made.
    @Test func oneCommandLaunchesManyTimes() {
        let reports = Reports()
        let launcher = ProcessLauncher(report: reports.add)
        let command = LaunchCommand(["sh", "-c", "exit 6", "a b"])
        var pids = Set<pid_t>()
        for _ in 0..<3 { if let pid = launcher.launch(command) { pids.insert(pid) } }
        #expect(pids.count == 3)
        #expect(reports.wait(for: 3) == Array(repeating: #"motionscript: exec [sh, -c, "exit 6", "a b"]: exited with status 6"#, count: 3))
        #expect(launcher.launch(LaunchCommand([])) == nil)
        #expect(launcher.launch(LaunchCommand(["", "x"])) == nil)
        #expect(reports.all.suffix(2) == ["motionscript: exec: no command to run", "motionscript: exec: no command to run"])
    }
}
