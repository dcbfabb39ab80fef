#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// The worker processes alive now, so that Ctrl-C on the batch kills them and what they started.
/// Workers live in process groups of their own (the terminal's Ctrl-C does not reach them).
final class WorkerRegistry: @unchecked Sendable {
    static let shared = WorkerRegistry()
    private let lock = NSLock()
    private var groups: Set<pid_t> = []
    private var sources: [DispatchSourceSignal] = []

    func add(_ pid: pid_t) { _ = lock.withLock { groups.insert(pid) } }
    func remove(_ pid: pid_t) { _ = lock.withLock { groups.remove(pid) } }

    /// On SIGINT or SIGTERM: kills every worker's process group, then exits 130 or 143.
    func stopOnSignals() {
        lock.withLock {
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { [self] in
                    lock.withLock { groups.forEach { _ = kill(-$0, SIGKILL) } }
                    exit(128 + signalNumber)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
