#if canImport(Glibc)
import Glibc
#endif

/// A diagnostic's syslog priority, which journald reads from a `<N>` prefix on a stderr line.
public enum LogPriority: Int, Sendable {
    case error = 3
    case warning = 4
    case info = 6

    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "info"
        }
    }

    /// The priority a diagnostic line says it has: "error: …" and "warning: …" (also after the
    /// plugin's name, "swipe: error: …"), else info.
    public static func of(_ line: String) -> LogPriority {
        let head = line.prefix(80)
        if head.hasPrefix("error:") || head.contains(": error:") || head.hasPrefix("motionscript: error") { return .error }
        if head.hasPrefix("warning:") || head.contains(": warning:") { return .warning }
        return .info
    }
}

/// Whether stderr goes to the journal: systemd sets JOURNAL_STREAM to the "DEVICE:INODE" of the
/// stream it connected to stderr; it only counts while stderr is still that stream (a child whose
/// stderr was redirected inherits the variable too).
public enum JournalStream {
    public static func isStandardError(environment value: String?) -> Bool {
        guard let value, let colon = value.firstIndex(of: ":"),
              let device = UInt64(value[..<colon]), let inode = UInt64(value[value.index(after: colon)...]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    public static var isStandardError: Bool {
        isStandardError(environment: getenv("JOURNAL_STREAM").map { String(cString: $0) })
    }

    /// The line as written to stderr: with `<N>` in front under journald, plain otherwise.
    public static func format(_ line: String, priority: LogPriority, journal: Bool) -> String {
        // journald reads each line on its own: every line of a traceback carries the priority.
        journal ? line.split(separator: "\n", omittingEmptySubsequences: false).map { "<\(priority.rawValue)>" + $0 }.joined(separator: "\n") : line
    }
}
