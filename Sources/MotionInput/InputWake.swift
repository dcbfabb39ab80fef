#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// The process's wake-up pipe for waits on input files: a FIFO with no writer yet (an event
/// file, a script). The host has SIGINT/SIGTERM write a byte to `writeEnd` (as it does for live
/// devices), and every such wait polls `readEnd` beside its file, so the first signal ends the
/// wait whichever thread the kernel delivered it to. Process-wide, as signals are.
public enum InputWake {
    private static let ends: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 else { return (-1, -1) }
        return (fds[0], fds[1])
    }()

    /// Poll this for `POLLIN`: readable once a wake-up was written.
    public static var readEnd: Int32 { ends.read }
    /// Write one byte here (a signal handler may) to end every wait.
    public static var writeEnd: Int32 { ends.write }

    /// True when a wake-up is pending (without consuming it: every wait sees it).
    public static var isPending: Bool {
        guard readEnd >= 0 else { return false }
        var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) > 0
    }

    /// Forgets pending wake-ups (the host forgot the interruption).
    public static func drain() {
        guard readEnd >= 0 else { return }
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) > 0 {}
    }
}
