#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives: `$XDG_RUNTIME_DIR/motionscript/control.sock` (a per-user
/// folder only its user can enter), or `/tmp/motionscript-UID/control.sock` without one.
public enum ControlSocketPath {
    public static func standard(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/motionscript/control.sock"
        }
        return "/tmp/motionscript-\(geteuid())/control.sock"
    }

    public static func standard() -> String {
        var environment: [String: String] = [:]
        if let v = getenv("XDG_RUNTIME_DIR") { environment["XDG_RUNTIME_DIR"] = String(cString: v) }
        return standard(environment: environment)
    }

    /// The socket's folder, `path` without its last component.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
