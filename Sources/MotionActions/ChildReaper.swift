import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thread that waits for every command `motion.exec` launched, in the whole process, and
/// reaps each by its own pid (`waitpid(pid)`, never `waitpid(-1)`, which would take children
/// that are not ours, such as a scenario worker's). A thread per running command made 2,000
/// commands 1,842 threads.
///
/// A child is watched through a pidfd (`pidfd_open`, Linux 5.3) in the thread's one `poll`.
/// Where there is none (an older kernel; valgrind 3.19, which does not know the call; no
/// descriptor left), the child is watched through SIGCHLD instead (`ChildSignal`): the signal
/// wakes the same thread, which asks each such child of ours with `waitpid(pid, WNOHANG)`.
/// Still one thread, still only our own children reaped, and no wake-up but for a signal or a
/// launch: a child that ended before it was listed is found because listing it and the
/// signal's look are serialised by the lock the launch holds (`spawn`).
///
/// The thread starts with the first child and stays, blocked in its wait (no wake-ups), for
/// the life of the process.
final class ChildReaper: @unchecked Sendable {
    static let shared = ChildReaper()
    /// Children of the whole process running at once (docs/daemon.md): each holds a pidfd.
    static let maxRunning = 64

    private struct Child {
        let pid: pid_t
        /// -1: watched through SIGCHLD.
        let pidfd: Int32
        /// What it runs and where its failure goes (`ProcessLauncher.reportEnd`): held, not
        /// made per launch.
        let command: LaunchCommand
        let report: @Sendable (String) -> Void
        /// The plugin's count, given back when the child ends.
        let quota: ChildQuota?
    }

    private let openPidfd: @Sendable (pid_t) -> Int32
    /// Guards everything below: it is only ever touched with the lock held.
    private let lock = NSLock()
    private var children: [Child] = []
    /// Children in `children` without a pidfd.
    private var signalled = 0
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var started = false
    /// Whether SIGCHLD wakes this reaper (from its first child without a pidfd on).
    private var listensForSignal = false
    /// Threads started so far (one, however many children): for tests.
    private(set) var threadsStarted = 0
    /// Times the thread came out of its wait: for tests (a busy loop would show here).
    var wakeUps: Int { lock.withLock { wakeUpCount } }
    private var wakeUpCount = 0

    /// `openPidfd`: `pidfd_open`, or a stand-in that fails (tests of the SIGCHLD way).
    init(openPidfd: @escaping @Sendable (pid_t) -> Int32 = { ms_pidfd_open($0) }) {
        self.openPidfd = openPidfd
    }

    /// Runs `start` (which starts `command` as a child of this process and returns its pid, or
    /// nil) and watches the child it started: once it ended, its wait status goes to
    /// `ProcessLauncher.reportEnd` with `report`, on the reaper's thread. The lock is held from
    /// before the child exists until it is listed, so the reaper's look for ended children
    /// (after a SIGCHLD) cannot pass it by.
    /// `full`: set when `maxRunning` children run already (nothing started then).
    func spawn(_ command: LaunchCommand, report: @escaping @Sendable (String) -> Void, quota: ChildQuota? = nil,
               full: inout Bool, _ start: () -> pid_t?) -> pid_t? {
        lock.lock()
        guard children.count < Self.maxRunning else {
            lock.unlock()
            full = true
            return nil
        }
        guard let pid = start() else {
            lock.unlock()
            return nil
        }
        // pidfds are close-on-exec from the start (pidfd_open(2)).
        let pidfd = openPidfd(pid)
        children.append(Child(pid: pid, pidfd: pidfd, command: command, report: report, quota: quota))
        var wake = false
        if !started { startThread() }
        if pidfd >= 0 {
            wake = true  // a new descriptor for the thread's poll
        } else {
            signalled += 1
            if !listensForSignal {
                // From now on SIGCHLD wakes the thread. This child may have ended before: look once.
                listensForSignal = true
                ChildSignal.listen(wakeWrite)
                wake = true
            }
        }
        let fd = wakeWrite
        lock.unlock()
        if wake {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
        return pid
    }

    /// How many children are being waited for.
    var waiting: Int { lock.withLock { children.count } }
    /// Children reaped so far (their end reported): for tests.
    var reaped: Int { lock.withLock { reapedCount } }
    private var reapedCount = 0

    /// With the lock held.
    private func startThread() {
        var fds: [Int32] = [0, 0]
        if pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 {
            (wakeRead, wakeWrite) = (fds[0], fds[1])
        }
        started = true
        threadsStarted += 1
        let thread = Thread { [self] in run() }
        thread.name = "motionscript reaper"
        thread.start()
    }

    /// The thread's loop. Its buffers are made once and reused: a wake-up (one per command
    /// launched with a pidfd, one per command ended) allocates nothing, so a daemon that runs
    /// commands for months stays flat (`CommandLeakTests`; nothing built per wake-up, such as a
    /// Set of the pidfds, which in optimized builds kept each wake-up's pollfd buffer alive).
    private func run() {
        // pollfds in use: the first `watched` (the wake pipe, then one per pidfd).
        var fds: [pollfd] = []
        var watched = 0
        var ended: [Ended] = []
        var sink = [UInt8](repeating: 0, count: 64)
        while true {
            lock.lock()
            watched = 0
            put(wakeRead, in: &fds, at: &watched)
            // By index: a copy of a child would retain its closure.
            for i in children.indices where children[i].pidfd >= 0 { put(children[i].pidfd, in: &fds, at: &watched) }
            lock.unlock()
            let rc = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(watched), -1) }
            if rc <= 0 { continue }  // EINTR
            // A launch or a SIGCHLD: the children without a pidfd are looked at below.
            let woken = fds[0].revents != 0
            if woken {
                // Until a read comes back short: the pipe is empty then (most wake-ups: one read).
                while sink.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) == sink.count {}
            }
            let anyReady = rc > (woken ? 1 : 0)
            lock.lock()
            wakeUpCount += 1
            let look = woken && signalled > 0
            var i = 0
            while (anyReady || look) && i < children.count {
                let (pid, pidfd) = (children[i].pid, children[i].pidfd)
                var status: Int32 = 0
                if pidfd >= 0 {
                    guard anyReady, isReady(pidfd, fds, watched) else { i += 1; continue }
                    ended.append(Ended(child: children.remove(at: i), status: 0, waited: false))
                    continue
                }
                guard look else { i += 1; continue }
                let rc = waitpid(pid, &status, WNOHANG)
                // 0: still running. ECHILD: not a child any more (SIGCHLD was ignored when it
                // ended, or someone reaped it); nothing to wait for.
                guard rc == pid || (rc < 0 && errno == ECHILD) else { i += 1; continue }
                ended.append(Ended(child: children.remove(at: i), status: rc < 0 ? 0 : status, waited: true))
                signalled -= 1
            }
            lock.unlock()
            guard !ended.isEmpty else { continue }
            for i in ended.indices {
                var status = ended[i].status
                if !ended[i].waited {
                    while waitpid(ended[i].child.pid, &status, 0) < 0 && errno == EINTR {}
                    close(ended[i].child.pidfd)
                }
                ended[i].child.quota?.giveBack()
                ProcessLauncher.reportEnd(status, of: ended[i].child.command, to: ended[i].child.report)
            }
            lock.withLock { reapedCount += ended.count }
            ended.removeAll(keepingCapacity: true)
        }
    }

    /// Sets `fds[index]` to wait for `fd` to be readable (growing `fds` once, then reused).
    private func put(_ fd: Int32, in fds: inout [pollfd], at index: inout Int) {
        let entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if index < fds.count { fds[index] = entry } else { fds.append(entry) }
        index += 1
    }

    private func isReady(_ pidfd: Int32, _ fds: [pollfd], _ watched: Int) -> Bool {
        for i in 1..<watched where fds[i].fd == pidfd { return fds[i].revents != 0 }
        return false
    }

    /// A child found ended, reaped already (`waited`) or to be reaped by its pid.
    private struct Ended {
        let child: Child
        let status: Int32
        let waited: Bool
    }
}
