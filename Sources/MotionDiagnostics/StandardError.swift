#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one way diagnostics reach stderr, in every module and command: descriptor 2, written
/// with write(2) — no C stream (a shared global) involved, so any thread may call it, a watchdog
/// about to end the process included — or, in the daemon, its diversion, which then applies to
/// everything written here.
///
/// A host that must never stall on its stderr (the live daemon: a pipe nobody reads fills
/// after 64 KiB, and then every write(2) would block every plugin) diverts it (`divert`) to a
/// bounded queue that a thread of its own writes out (docs/daemon.md, "Output").
public enum StandardError {
    private static let diversion = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends everything written here to `queue` from now on (nil: back to write(2)).
    public static func divert(_ queue: (@Sendable (String) -> Void)?) {
        diversion.withLock { $0 = queue }
    }

    public static func write(_ text: String) {
        if let queue = diversion.withLock({ $0 }) { return queue(text) }
        direct(text)
    }

    public static func line(_ text: String) { write(text + "\n") }

    /// The last words before the process ends (`_exit`): written by a thread of their own,
    /// waited for `seconds` at most, past any diversion (a queue would die with the process).
    /// A reader that stopped reading loses them; the process still ends in time.
    public static func lastLine(_ text: String, waitingAtMost seconds: Double = 0.5) {
        let last = LastLine(message: text + "\n")
        var thread = pthread_t()
        let box = Unmanaged.passRetained(last).toOpaque()
        guard pthread_create(&thread, nil, { argument in
            let last = Unmanaged<LastLine>.fromOpaque(argument!).takeRetainedValue()
            StandardError.direct(last.message)
            last.done.store(true, ordering: .releasing)
            return nil
        }, box) == 0 else {
            Unmanaged<LastLine>.fromOpaque(box).release()
            return
        }
        pthread_detach(thread)
        let deadline = monotonic() + seconds
        while !last.done.load(ordering: .acquiring) && monotonic() < deadline { usleep(1000) }
    }

    private final class LastLine: Sendable {
        let message: String
        let done = Atomic<Bool>(false)
        init(message: String) { self.message = message }
    }

    private static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func direct(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
