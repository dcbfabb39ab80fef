import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGCHLD as a byte on a pipe, for the reapers that watch children without a pidfd
/// (`ChildReaper`). Installed once, for the process, when the first such child is listed;
/// never on a kernel with pidfd_open. It only wakes: what ended is found with
/// `waitpid(pid, WNOHANG)` for each child the reaper listed, so children of anyone else stay
/// theirs to reap. A handler installed before is still called after ours; with
/// SA_RESTART, calls interrupted by the signal restart (a `poll` returns EINTR, which every wait
/// of the process takes as "wait again").
///
/// The handler is async-signal-safe: it reads slots written before it could see them (atomics
/// in memory allocated once), writes one byte per listener and restores errno. No allocation,
/// no lock, no reference counting.
enum ChildSignal {
    /// Listeners' wake descriptors (-1: free). One per reaper that watches without pidfds:
    /// in a process, the shared reaper (and tests' own).
    static let capacity = 8
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int32>> = {
        let slots = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: capacity)
        for i in 0..<capacity { (slots + i).initialize(to: Atomic(-1)) }
        return slots
    }()
    /// The disposition before ours, called after ours.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        previous.initialize(to: sigaction())
        return previous
    }()
    /// SIGCHLDs received since the handler was installed: for tests.
    static var received: Int { counter.pointee.load(ordering: .sequentiallyConsistent) }
    nonisolated(unsafe) private static let counter: UnsafeMutablePointer<Atomic<Int>> = {
        let counter = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        counter.initialize(to: Atomic(0))
        return counter
    }()
    private static let installLock = NSLock()
    nonisolated(unsafe) private static var installed = false

    /// From now on, every SIGCHLD the process receives writes a byte to `fd` (non-blocking).
    static func listen(_ fd: Int32) {
        installLock.withLock {
            for i in 0..<capacity where slots[i].load(ordering: .relaxed) < 0 {
                slots[i].store(fd, ordering: .sequentiallyConsistent)
                break
            }
            guard !installed else { return }
            installed = true
            _ = received
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = onChildSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_RESTART | SA_NOCLDSTOP
            _ = sigaction(SIGCHLD, &action, previous)
        }
    }

    /// The handler's work (a plain function of the type, so that everything it touches was
    /// made before it is installed).
    fileprivate static func received(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let saved = errno
        counter.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        var i = 0
        while i < capacity {
            let fd = slots[i].load(ordering: .sequentiallyConsistent)
            if fd >= 0 {
                var byte: UInt8 = 1
                _ = write(fd, &byte, 1)
            }
            i += 1
        }
        errno = saved
        // The disposition we replaced: SIG_DFL (0) and SIG_IGN (1) do nothing for SIGCHLD.
        let old = previous.pointee
        if old.sa_flags & SA_SIGINFO != 0 {
            if let handler = old.__sigaction_handler.sa_sigaction { handler(signal, info, context) }
        } else if let handler = old.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
            handler(signal)
        }
    }
}

private let onChildSignal: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    ChildSignal.received($0, $1, $2)
}
