import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thread that waits for every command `motion.exec` launched, in the whole process: each
/// child is watched through a pidfd (`pidfd_open`) in one `ppoll`, and reaped by its own pid
/// (`waitpid(pid)`, never `waitpid(-1)`, which would take children that are not ours, such as
/// a scenario worker's). A thread per running command made 2,000 commands 1,842 threads.
///
/// The thread starts with the first child and stays, blocked in its wait (no wake-ups), for
/// the life of the process. On a kernel without pidfd_open (before 5.3) a child gets a thread
/// of its own, as before.
final class ChildReaper: @unchecked Sendable {
    static let shared = ChildReaper()

    private struct Child {
        let pid: pid_t
        let pidfd: Int32
        let exited: @Sendable (Int32) -> Void
    }

    private let lock = NSLock()
    private var children: [Child] = []
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var started = false
    /// Threads started so far (one, however many children): for tests.
    private(set) var threadsStarted = 0

    /// Calls `exited` with the wait status once `pid` (a child of this process) ended; on the
    /// reaper's thread.
    func watch(_ pid: pid_t, exited: @escaping @Sendable (Int32) -> Void) {
        let pidfd = ms_pidfd_open(pid)
        guard pidfd >= 0 else { return reapOnOwnThread(pid, exited) }
        _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC)
        lock.lock()
        children.append(Child(pid: pid, pidfd: pidfd, exited: exited))
        let needsThread = !started
        if needsThread {
            var fds: [Int32] = [0, 0]
            if pipe(&fds) == 0 {
                for fd in fds {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                }
                (wakeRead, wakeWrite) = (fds[0], fds[1])
            }
            started = true
            threadsStarted += 1
        }
        let wake = wakeWrite
        lock.unlock()
        if needsThread {
            let thread = Thread { [self] in run() }
            thread.name = "motionscript reaper"
            thread.start()
        } else {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)
        }
    }

    /// How many children are being waited for.
    var waiting: Int { lock.withLock { children.count } }
    /// Children reaped so far (their `exited` called): for tests.
    var reaped: Int { lock.withLock { reapedCount } }
    private var reapedCount = 0

    /// The thread's loop. Its buffers are made once and reused: a wake-up (one per command
    /// launched, one per command ended) allocates nothing, so a daemon that runs commands for
    /// months stays flat. (It used to filter `fds.dropFirst()` into a Set per wake-up; in
    /// optimized builds that kept each wake-up's pollfd buffer alive: ~600 bytes per command.)
    private func run() {
        var fds: [pollfd] = []
        var ready: [Int32] = []
        var done: [Child] = []
        var sink = [UInt8](repeating: 0, count: 64)
        while true {
            lock.lock()
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for child in children { fds.append(pollfd(fd: child.pidfd, events: Int16(POLLIN), revents: 0)) }
            lock.unlock()
            let rc = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if rc < 0 { continue }  // EINTR
            if fds[0].revents != 0 {
                while sink.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
            }
            ready.removeAll(keepingCapacity: true)
            for i in 1..<fds.count where fds[i].revents != 0 { ready.append(fds[i].fd) }
            guard !ready.isEmpty else { continue }
            lock.lock()
            children.removeAll { child in
                guard ready.contains(child.pidfd) else { return false }
                done.append(child)
                return true
            }
            lock.unlock()
            for child in done {
                var status: Int32 = 0
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
                close(child.pidfd)
                child.exited(status)
            }
            lock.withLock { reapedCount += done.count }
            done.removeAll(keepingCapacity: true)
        }
    }

    private func reapOnOwnThread(_ pid: pid_t, _ exited: @escaping @Sendable (Int32) -> Void) {
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exited(status)
        }.start()
    }
}
