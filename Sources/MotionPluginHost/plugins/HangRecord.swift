import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The plugin that hung the daemon last time. A hang outside Lua that the time limit cannot
/// reach (the library's long loops check it themselves; this is for what is left, a system
/// call that never returns) cannot be stopped on the same thread: the watchdog ends the
/// process (the daemon's `Watchdog`, the last resort), after writing the culprit's
/// file identity here. At the next start (systemd restarts the service) that plugin stays
/// disabled until its file changes. Kept at `$XDG_STATE_HOME/motionscript/hung-plugin`
/// (`~/.local/state/motionscript/hung-plugin`).
public struct HangRecord: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/motionscript/hung-plugin"
    }

    /// A plugin file's identity: its path, size and modification time (an edit changes it).
    public static func identity(of file: String) -> String {
        var info = stat()
        guard stat(file, &info) == 0 else { return file }
        return "\(file)\n\(info.st_size)\n\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\n"
    }

    /// Whether `file`, unchanged since, is the plugin that hung the daemon.
    public func isCulprit(_ file: String) -> Bool {
        guard let recorded = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return recorded == Self.identity(of: file)
    }

    /// Forgets the record (the culprit's file changed, or it loaded fine since).
    public func clear() { unlink(path) }

    /// Writes the record, from the watchdog's thread just before the process ends: plain
    /// system calls, nothing that could wait on the hung thread.
    func write(_ identity: String) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var prefix = ""
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            mkdir(prefix, 0o700)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var bytes = Array(identity.utf8)
        _ = Glibc.write(fd, &bytes, bytes.count)
        close(fd)
    }
}
