import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child `head` that is the only reader of a FIFO: it copies the first bytes or lines
/// (`head -c 96`, `head -n 1`) to a file and exits, and with it the FIFO's last reader goes.
///
/// Why a child and not a descriptor the test opens and closes: tests run in parallel in one
/// process, and any child another test spawns holds a copy of every descriptor of ours from
/// its clone until its exec. Close-on-exec narrows that window but cannot close it, so a
/// reader the test closed may still exist when motionscript writes. A reader that never was
/// in this process cannot be copied.
public struct LoneReader {
    public let pid: pid_t
    public let copy: String

    /// The FIFO is opened read-write in the child, so the open returns at once; posix_spawn
    /// returns after the child's exec, so the reader exists when this returns.
    public init(of fifo: String, head: [String], copyingTo copy: String) throws {
        self.copy = copy
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, fifo, O_RDWR, 0)
        posix_spawn_file_actions_addopen(&actions, 1, copy, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = (["head"] + head).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/usr/bin/head", &actions, nil, &argv, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        self.pid = pid
    }

    /// Waits (waitpid) until the reader exited and returns what it copied; after 20 s it is
    /// killed (a hang guard) and whatever it copied so far is returned.
    public func waitUntilGone() -> [UInt8] {
        let guardTimer = DispatchWorkItem { [pid] in kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: guardTimer)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guardTimer.cancel()
        return (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: copy)))) ?? []
    }
}
