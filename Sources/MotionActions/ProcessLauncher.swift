import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

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
    private let reaper: ChildReaper

    public convenience init(report: @escaping @Sendable (String) -> Void = ProcessLauncher.reportToStderr) {
        self.init(report: report, reaper: .shared)
    }

    /// `reaper`: tests give their own (one without pidfds).
    init(report: @escaping @Sendable (String) -> Void, reaper: ChildReaper) {
        self.report = report
        self.reaper = reaper
        reportUntagged = { report("motionscript: " + $0) }
    }

    /// `report` for a child no plugin's log takes (`ChildQuota.ended` nil), made once: a launch
    /// allocates nothing.
    private let reportUntagged: @Sendable (String) -> Void

    @Sendable public static func reportToStderr(_ line: String) {
        StandardError.write(line + "\n")
    }

    /// Starts `argv` (searched in PATH); returns its pid, or nil when it could not start (reported).
    @discardableResult
    public func launch(_ argv: [String]) -> pid_t? {
        launch(LaunchCommand(argv))
    }

    /// Starts `command` (its program searched in PATH); returns its pid, or nil when it could
    /// not start (reported, as is a refusal at the process's limit of running children). A
    /// command launched again and again is made once: its C strings
    /// are ready, and nothing is allocated per launch. The shown form of the command is made
    /// only for a report: a command that runs and succeeds costs no text.
    @discardableResult
    public func launch(_ command: LaunchCommand) -> pid_t? {
        do {
            return try launch(command, quota: nil) { report("motionscript: " + $0) }
        } catch {
            reportRefusal(command, error)
            return nil
        }
    }

    /// The same for a plugin's command held until its version loaded: a start failure is said
    /// as `launch(_:)` says it (the version's own log is gone by then).
    @discardableResult
    public func launch(_ command: LaunchCommand, quota: ChildQuota?) throws -> pid_t? {
        try launch(command, quota: quota) { report("motionscript: " + $0) }
    }

    /// Starts `command` for a plugin whose running children `quota` counts (nil: none counted):
    /// a command past its limit, or past the process's (`ChildReaper.maxRunning`), is not started
    /// and throws the reason (the plugin's error); one that cannot start is said to
    /// `startFailure` (`exec […]: cannot start: …`, on the caller's thread: a plugin's own log,
    /// tagged with its name) and gives nil; how a started one ended goes to the quota's `ended`
    /// (the plugin's log), or else to `report` as `motionscript: exec […]: …`.
    @discardableResult
    public func launch(_ command: LaunchCommand, quota: ChildQuota?, startFailure: (String) -> Void) throws -> pid_t? {
        guard let program = command.argv.first, !program.isEmpty else {
            startFailure("exec: no command to run")
            return nil
        }
        if let quota, !quota.take() {
            throw LaunchRefusal(description: "\(quota.limit) commands this plugin started are still running (the most at once)")
        }
        var rc: Int32 = 0
        var full = false
        let arguments = command.cArguments
        // How it ends goes to its plugin's log when the host gave the plugin one (`ChildQuota.ended`).
        // No closure made per launch (a new context, or a thunk from unwrapping an optional
        // closure, showed as heap growth in CommandLeakTests): both are stored, read as they are.
        let ended: @Sendable (String) -> Void
        if let plugin = quota?.ended { ended = plugin.say } else { ended = reportUntagged }
        let pid = reaper.spawn(command, report: ended, quota: quota, full: &full) {
            var pid: pid_t = 0
            rc = posix_spawnp(&pid, arguments[0]!, SpawnSettings.actions, SpawnSettings.attributes, arguments, environ)
            return rc == 0 ? pid : nil
        }
        guard let pid else {
            quota?.giveBack()
            if full { throw LaunchRefusal(description: "\(ChildReaper.maxRunning) commands started by motion.exec are still running (the most at once)") }
            startFailure("exec \(Self.show(command.argv)): cannot start: \(String(cString: strerror(rc)))")
            return nil
        }
        return pid
    }

    /// Says that `command` was refused (a limit), as a start that failed is said.
    public func reportRefusal(_ command: LaunchCommand, _ error: Error) {
        report("motionscript: exec \(Self.show(command.argv)): not started: \(error)")
    }

    /// Reports how a launched command ended, if it failed (on the reaper's thread), untagged:
    /// `exec […]: exited with status N`.
    static func reportEnd(_ status: Int32, of command: LaunchCommand, to report: @Sendable (String) -> Void) {
        let exited = status & 0x7f == 0
        if exited {
            let code = (status >> 8) & 0xff
            // 127 is the shell's "command not found" (posix_spawnp found `sh` itself).
            if code != 0 { report("exec \(show(command.argv)): exited with status \(code)") }
        } else {
            report("exec \(show(command.argv)): killed by signal \(status & 0x7f)")
        }
    }

    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time: the
    /// header declares it only for GNU sources. Without it children inherit what is not
    /// close-on-exec (motionscript opens its devices close-on-exec).
    static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// `["sh","-c","xdotool key super"]` as `[sh, -c, "xdotool key super"]`, for messages.
    static func show(_ argv: [String]) -> String {
        "[" + argv.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: ", ") + "]"
    }
}

/// How every child starts (see `ProcessLauncher`), made once: posix_spawn only reads them, so
/// launches on several threads share them. Plain pointers: reaching them costs no reference count.
private enum SpawnSettings {
    nonisolated(unsafe) static let actions: UnsafeMutablePointer<posix_spawn_file_actions_t> = {
        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        actions.initialize(to: posix_spawn_file_actions_t())
        posix_spawn_file_actions_init(actions)
        posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(actions, 2, 1)
        // Nothing else of motionscript's: a launched program that kept a grabbed device open
        // would keep it grabbed after motionscript exits.
        _ = ProcessLauncher.addCloseFrom?(actions, 3)
        return actions
    }()

    nonisolated(unsafe) static let attributes: UnsafeMutablePointer<posix_spawnattr_t> = {
        let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
        attributes.initialize(to: posix_spawnattr_t())
        posix_spawnattr_init(attributes)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(attributes, &defaults)
        posix_spawnattr_setsigmask(attributes, &empty)
        posix_spawnattr_setpgroup(attributes, 0)
        posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        return attributes
    }()
}

/// A command line for `ProcessLauncher`, made once: its arguments and, for posix_spawn, the
/// same as C strings (one buffer: the pointers, then the bytes), kept until it is released.
/// An argument stops at a NUL byte, as a C string does (`motion.exec` refuses those before).
public final class LaunchCommand: @unchecked Sendable {
    public let argv: [String]
    /// NULL-terminated; immutable after init, so launches on several threads may share it.
    let cArguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    public init(_ argv: [String]) {
        self.argv = argv
        let pointerBytes = (argv.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride
        var bytes = pointerBytes
        for argument in argv { bytes += argument.utf8.count + 1 }
        let base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<UnsafeMutablePointer<CChar>?>.alignment)
        cArguments = base.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: argv.count + 1)
        var next = base + pointerBytes
        for (i, argument) in argv.enumerated() {
            let utf8 = argument.utf8
            let count = utf8.count
            _ = UnsafeMutableRawBufferPointer(start: next, count: count).initializeMemory(as: UInt8.self, from: utf8)
            next.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
            cArguments[i] = next.bindMemory(to: CChar.self, capacity: count + 1)
            next += count + 1
        }
        cArguments[argv.count] = nil
    }

    deinit { UnsafeMutableRawPointer(cArguments).deallocate() }
}
