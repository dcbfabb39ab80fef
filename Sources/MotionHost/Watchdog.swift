import Foundation
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// The time limit's enforcer for code the Lua hook cannot reach, and for a state it watches
/// throughout (`LuaRuntime.isWatched`: `run --device`'s script), the limit itself. The watchdog
/// is armed for each stretch of work that the time limit bounds (a whole file run; one load,
/// replay or live frame; one plugin's callback) and disarmed after it. When a stretch is still
/// going at its limit, it first stops the stretch's Lua state (`LuaStateLimiter`; a watched
/// state's thread is signalled and its running Lua code raises): a script back from a C call
/// raises then, and only that state stops. If the stretch is still going `grace` seconds later, it is
/// blocked inside C (`os.execute("sleep 100")`, `io.read()` on a terminal), where nothing but
/// the process can be stopped: the watchdog writes the whole lines already made, says so and
/// ends the process with exit status 1.
///
/// `WatchThread`'s stretch configuration (the daemon's `PluginWatchdog` is its calls one): one
/// thread per watchdog, asleep while disarmed (no wake-ups), ended when the watchdog goes.
public final class Watchdog: Sendable {
    public let timeout: Double
    public let grace: Double
    private let timer: WatchThread?

    /// A watchdog for `timeout` seconds (0: never fires). Starts disarmed.
    public init(timeout: Double, grace: Double = 2, what: String, sink: LineSink? = nil) {
        self.timeout = timeout
        self.grace = grace
        guard timeout > 0 else { timer = nil; return }
        timer = WatchThread(grace: grace) {
            sink?.flushIfIdle()
            StandardError.line("error: \(what): timeout: still running \(grace) s after the time limit of \(timeout) s (blocked outside Lua, e.g. in os.execute or io.read); stopped")
            _exit(1)
        }
    }

    deinit { timer?.end() }

    /// The kernel's id of the watchdog's thread (its /proc/self/task entry), once it runs: for
    /// tests, which look for that one thread rather than count a process's threads.
    public var threadID: pid_t? { timer?.threadID }

    /// Whether its thread runs, and so stops a state at each stretch's limit (`arm(stopping:)`):
    /// a host that arms it for every call of a state marks the state watched
    /// (`LuaRuntime.isWatched`), whose Lua code then runs with no hook.
    public var stopsStates: Bool { timer?.isRunning ?? false }

    /// Starts a stretch of work bounded by `timeout`, from now; at its limit `limiter`'s state
    /// (when given) is stopped.
    public func arm(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil) {
        timer?.arm(at: (now ?? Clock.monotonic()) + timeout, limiter: limiter)
    }

    public func disarm() { timer?.disarm() }

    /// Before a wait for input with nothing armed: the thread will not wake (see `WatchThread.quiesce`).
    public func quiesce() { timer?.quiesce() }

    /// Runs `body` as one armed stretch.
    /// `now`: CLOCK_MONOTONIC seconds when the caller already read it (nil: read here).
    public func bounding<T>(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil, _ body: () throws -> T) rethrows -> T {
        arm(stopping: limiter, now: now)
        defer { disarm() }
        return try body()
    }
}
