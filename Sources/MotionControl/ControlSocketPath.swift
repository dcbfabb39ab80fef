#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives: `$XDG_RUNTIME_DIR/motionscript/control.sock` (a per-user
/// folder only its user can enter), or `/tmp/motionscript-UID/control.sock` without one.
///
/// A folder another user could write to, or that is not what it seems, would let them swap the
/// socket for one of their own or make the daemon write through a link, so the folder is
/// checked before it is used (`problem(folder:standard:)`), by the daemon and by `ctl`.
public enum ControlSocketPath {
    public static func standard(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/motionscript/control.sock"
        }
        return "/tmp/motionscript-\(geteuid())/control.sock"
    }

    public static func standard() -> String {
        standard(environment: environment)
    }

    static var environment: [String: String] {
        var environment: [String: String] = [:]
        if let v = getenv("XDG_RUNTIME_DIR") { environment["XDG_RUNTIME_DIR"] = String(cString: v) }
        return environment
    }

    /// The socket's folder, `path` without its last component.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Why the socket `path` must not be used, or nil. The folder must be a folder (not a
    /// symbolic link), belong to this user (or root) and be writable by no one else; the standard
    /// folder, which the daemon makes itself, must be exactly 0700 and this user's, and the
    /// `XDG_RUNTIME_DIR` it is made in must not be world-writable.
    public static func problem(socketPath path: String, environment: [String: String]) -> String? {
        let folder = folder(of: path)
        let isStandard = path == standard(environment: environment)
        if isStandard, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var info = stat()
            if stat(runtime, &info) == 0, info.st_mode & 0o002 != 0 {
                return "refusing XDG_RUNTIME_DIR \(runtime): anyone can write to it (mode \(octal(info.st_mode))); it must be the user's own (0700)"
            }
        }
        if let problem = problem(folder: folder, standard: isStandard) { return problem }
        // In a shared sticky folder (/tmp) only the socket's owner can remove or replace it: a
        // socket there must be this user's, or someone else made it first.
        var info = stat()
        if lstat(path, &info) == 0, info.st_uid != geteuid() {
            return "refusing the control socket \(path): it belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))"
        }
        return nil
    }

    public static func problem(socketPath path: String) -> String? {
        problem(socketPath: path, environment: environment)
    }

    /// Why `folder` must not hold the socket, or nil (a folder that does not exist: nil).
    static func problem(folder: String, standard: Bool) -> String? {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return nil }
        let prefix = "refusing the control socket's folder \(folder): "
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return prefix + "it is a symbolic link"
        default: return prefix + "it is not a folder"
        }
        let me = geteuid()
        if info.st_uid != me && (standard || info.st_uid != 0) {
            return prefix + "it belongs to uid \(info.st_uid), not to this user (uid \(me))"
        }
        // A shared sticky folder (/tmp) is allowed for a socket given with --socket: no one can
        // remove or replace another's files there (the socket's owner is checked above).
        let sharedSticky = !standard && info.st_mode & 0o1000 != 0 && info.st_uid == 0
        if info.st_mode & 0o022 != 0 && !sharedSticky {
            return prefix + "others can write to it (mode \(octal(info.st_mode))); it must be 0700 or at least not writable by group or others"
        }
        if standard, info.st_mode & 0o077 != 0 {
            return prefix + "its mode is \(octal(info.st_mode)), not 0700 (remove it: the daemon makes it 0700)"
        }
        return nil
    }

    static func octal(_ mode: mode_t) -> String {
        let s = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
