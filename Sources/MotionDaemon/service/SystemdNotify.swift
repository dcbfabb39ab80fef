#if canImport(Glibc)
import Glibc
#endif
import MotionControl

/// The service manager's notify protocol, written by hand (no libsystemd): one datagram of
/// `KEY=VALUE` lines to the AF_UNIX socket named by `$NOTIFY_SOCKET` ("@…" is the abstract
/// namespace). Without the variable every call is a no-op, so the daemon runs the same outside
/// systemd.
public final class SystemdNotify {
    public let socketPath: String?
    private var fd: Int32 = -1

    public init(socketPath: String?) {
        self.socketPath = (socketPath?.isEmpty ?? true) ? nil : socketPath
    }

    /// From `$NOTIFY_SOCKET`.
    public static func fromEnvironment() -> SystemdNotify {
        SystemdNotify(socketPath: getenv("NOTIFY_SOCKET").map { String(cString: $0) })
    }

    deinit { if fd >= 0 { close(fd) } }

    public var isActive: Bool { socketPath != nil }

    /// Sends the fields; returns whether the datagram went out (false without a socket).
    @discardableResult
    public func send(_ fields: [String]) -> Bool {
        guard let socketPath, let address = UnixSocketAddress(socketPath) else { return false }
        if fd < 0 {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return false }
        }
        let bytes = Array(fields.joined(separator: "\n").utf8)
        let sent = address.withSockaddr { addr, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), addr, length) }
        }
        return sent == bytes.count
    }

    /// The plugins are loaded and the daemon serves.
    public func ready(status: String) { send(["READY=1", "STATUS=" + status]) }

    public func status(_ status: String) { send(["STATUS=" + status]) }

    /// A reload begins; `ready(status:)` ends it. systemd wants the monotonic time of the
    /// request with it, so it can tell this reload from an earlier one.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        send(["RELOADING=1", "MONOTONIC_USEC=\(microseconds)"])
    }

    public func stopping() { send(["STOPPING=1"]) }
}
