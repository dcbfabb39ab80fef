import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The last resort behind `--timeout`: the Lua hook stops scripts that run Lua code, and the
/// run loop checks between frames, but a script blocked inside C (`os.execute("sleep 100")`,
/// `io.read()` on a terminal) runs neither. The watchdog is armed for each stretch of work that
/// the time limit bounds (a whole file run; one load, replay or live frame) and disarmed after
/// it; if a stretch is still going `grace` seconds after its limit, the watchdog writes the
/// whole lines already made, says so and ends the process with exit status 1.
public final class Watchdog: Sendable {
    public let timeout: Double
    public let grace: Double
    private let what: String
    private let sink: LineSink?
    /// Monotonic seconds past which the process ends; infinity while disarmed.
    private let firesAt = Mutex(Double.infinity)

    /// A watchdog for `timeout` seconds (0: never fires). Starts disarmed.
    public init(timeout: Double, grace: Double = 2, what: String, sink: LineSink? = nil) {
        self.timeout = timeout
        self.grace = grace
        self.what = what
        self.sink = sink
        guard timeout > 0 else { return }
        let thread = Thread { [self] in watch() }
        thread.start()
    }

    /// Starts a stretch of work bounded by `timeout`, from now.
    public func arm() {
        guard timeout > 0 else { return }
        let at = Clock.monotonic() + timeout + grace
        firesAt.withLock { $0 = at }
    }

    public func disarm() {
        firesAt.withLock { $0 = .infinity }
    }

    /// Runs `body` as one armed stretch.
    public func bounding<T>(_ body: () throws -> T) rethrows -> T {
        arm()
        defer { disarm() }
        return try body()
    }

    private func watch() {
        // Signals go to the thread that runs Lua, which can act on them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let step = min(0.25, max(grace / 4, 0.01))
        while true {
            Thread.sleep(forTimeInterval: step)
            guard Clock.monotonic() > firesAt.withLock({ $0 }) else { continue }
            sink?.flushIfIdle()
            StandardError.line("error: \(what): timeout: still running \(grace) s after the time limit of \(timeout) s (blocked outside Lua, e.g. in os.execute or io.read); stopped")
            _exit(1)
        }
    }
}
