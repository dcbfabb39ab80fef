#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics on descriptor 2, written with write(2): no C stream (a shared global) involved,
/// so any thread may call it, a watchdog about to end the process included.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    public static func line(_ text: String) { write(text + "\n") }
}
