import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts commands for `motion.exec` and returns at once. A child:
/// - has its stdout and stderr on motionscript's stderr (the JSON Lines on stdout stay clean),
///   its stdin on /dev/null, and no other descriptor of motionscript's;
/// - runs in its own process group with default signal handling and an empty signal mask, so
///   Ctrl-C on motionscript does not kill an application it launched, and a signal motionscript
///   blocks for its own use is not blocked in the child;
/// - is reaped by the process's one reaper thread (`ChildReaper`), which reports a failure
///   (non-zero exit, a signal) to `report`; a command that cannot start at all is reported the same way. Neither is fatal.
public final class ProcessLauncher: Sendable {
    private let report: @Sendable (String) -> Void

    public init(report: @escaping @Sendable (String) -> Void = ProcessLauncher.reportToStderr) {
        self.report = report
    }

    @Sendable public static func reportToStderr(_ line: String) {
        fputs(line + "\n", stderr)
    }

    /// Starts `argv` (searched in PATH); returns its pid, or nil when it could not start (reported).
    @discardableResult
    public func launch(_ argv: [String]) -> pid_t? {
        let shown = Self.show(argv)
        guard let program = argv.first, !program.isEmpty else {
            report("motionscript: exec: no command to run")
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        // Nothing else of motionscript's: a launched program that kept a grabbed device open
        // would keep it grabbed after motionscript exits.
        _ = Self.addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, program, &actions, &attributes, &cArguments, environ)
        guard rc == 0 else {
            report("motionscript: exec \(shown): cannot start: \(String(cString: strerror(rc)))")
            return nil
        }
        let report = self.report
        ChildReaper.shared.watch(pid) { status in
            let exited = status & 0x7f == 0
            if exited {
                let code = (status >> 8) & 0xff
                // 127 is the shell's "command not found" (posix_spawnp found `sh` itself).
                if code != 0 { report("motionscript: exec \(shown): exited with status \(code)") }
            } else {
                report("motionscript: exec \(shown): killed by signal \(status & 0x7f)")
            }
        }
        return pid
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time: the
    /// header declares it only for GNU sources. Without it children inherit what is not
    /// close-on-exec (motionscript opens its devices close-on-exec).
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// `["sh","-c","xdotool key super"]` as `[sh, -c, "xdotool key super"]`, for messages.
    static func show(_ argv: [String]) -> String {
        "[" + argv.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: ", ") + "]"
    }
}
