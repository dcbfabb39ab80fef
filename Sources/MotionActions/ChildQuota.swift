import Foundation

/// How many `motion.exec` children one plugin (one Lua state) has running, and the most it
/// may (docs/daemon.md): each running child holds a descriptor (its pidfd) until it ends, so a
/// plugin that starts long-running commands without end would take the daemon's descriptors.
/// Taken on the loop's thread, given back on the reaper's (hence the lock).
public final class ChildQuota: @unchecked Sendable {
    /// Children one plugin may have running at once.
    public static let maxPerPlugin = 16

    public let limit: Int
    /// Where a failed end of one of these children is said (`exec […]: exited with status N`),
    /// on the reaper's thread: a plugin's log (`ctl logs`, tagged with its name) through its
    /// host's loop. Nil: the launcher's report (stderr, as `motionscript: exec …`).
    public let ended: EndReport?
    private let lock = NSLock()
    private var count = 0

    public init(limit: Int = ChildQuota.maxPerPlugin, ended: (@Sendable (String) -> Void)? = nil) {
        self.limit = limit
        self.ended = ended.map(EndReport.init)
    }

    /// Children running now.
    public var running: Int { lock.withLock { count } }

    /// One more child, if the limit allows.
    func take() -> Bool {
        lock.withLock {
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// A child ended (or did not start).
    func giveBack() {
        lock.withLock { count = max(0, count - 1) }
    }
}

/// Why `motion.exec` did not start a command: a limit was reached.
public struct LaunchRefusal: Error, CustomStringConvertible {
    public let description: String
}

/// Where a child's failed end is said, held by reference: the launcher reads `say` as stored,
/// never unwrapping an optional closure per launch (which makes a thunk each time).
public final class EndReport: Sendable {
    public let say: @Sendable (String) -> Void
    init(_ say: @escaping @Sendable (String) -> Void) { self.say = say }
}
