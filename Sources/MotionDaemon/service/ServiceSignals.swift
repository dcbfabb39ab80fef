#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// SIGHUP (reload every plugin, as `systemctl reload` sends it) and SIGUSR1 (the emergency
/// stop: pause, or resume when paused) become bytes on a pipe the daemon's loop waits on: the
/// handler only write(2)s, and the work happens on the loop's thread between frames.
public enum ServiceSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    public enum Signal: UInt8 {
        case reload = 72     // "H"
        case emergency = 85  // "U"
    }

    /// Installs the handlers; returns the pipe's read end (non-blocking).
    public static func install() -> Int32? {
        var fds: [Int32] = [0, 0]
        guard pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 else { return nil }
        writeEnd = fds[1]
        signal(SIGHUP) { _ in
            var byte = ServiceSignals.Signal.reload.rawValue
            _ = write(ServiceSignals.writeEnd, &byte, 1)
        }
        signal(SIGUSR1) { _ in
            var byte = ServiceSignals.Signal.emergency.rawValue
            _ = write(ServiceSignals.writeEnd, &byte, 1)
        }
        return fds[0]
    }

    /// The signals that arrived since the last call, in order.
    public static func drain(_ fd: Int32) -> [Signal] {
        var out: [Signal] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return out }
            out += buffer[..<n].compactMap(Signal.init(rawValue:))
        }
    }
}
