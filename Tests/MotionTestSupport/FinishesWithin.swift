import Foundation

/// Runs `body` on a thread of its own and waits at most `seconds` for it: false when it is still
/// running then. For a test whose regression is a hang (a loop that cannot be interrupted, a read
/// that never returns): the test fails and the run goes on, where calling `body` directly would
/// hang the whole run. A body that never returns keeps its thread until the process ends. The
/// limit is a bound for the failure, never a measure of speed: pass one far above the normal time.
public func finishes(within seconds: Double, _ body: @escaping () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let work = UncheckedBody(body)
    let thread = Thread {
        work.body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

private final class UncheckedBody: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
