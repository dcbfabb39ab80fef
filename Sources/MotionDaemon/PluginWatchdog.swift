import Foundation
import MotionHost
import MotionLua
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The time limit's enforcer for code the Lua hook cannot reach, per plugin call: the
/// `Watchdog`'s thread, armed around each call into a plugin with that plugin's limit. At the
/// limit it stops the plugin's state (`LuaStateLimiter`: it raises as soon as Lua runs again,
/// and only that plugin is disabled). The library's own loops in C (pattern matching, the table
/// functions, `load`) check the limit themselves (CLuaShimBounded.h) and a plugin opens no file
/// that could block (`RegularFiles`), so this is a last resort: a call still blocked `grace`
/// seconds later is stuck outside Lua where nothing can reach it (a system call that does not
/// return, a bug in C), which nothing but the process can leave:
/// the watchdog records the plugin (`HangRecord`), writes the whole lines already made, says
/// which plugin hung and ends the process with exit status 1; the next start (the service's
/// restart) keeps that plugin disabled until its file changes.
public final class PluginWatchdog: Sendable {
    public let grace: Double
    private let timer: Watchdog.WatchThread
    /// The plugin of the call armed now, shared with the watchdog's thread.
    private final class Armed: Sendable {
        struct Call {
            var plugin = ""
            var identity = ""
            var timeout = 0.0
        }
        let call = Mutex(Call())
    }
    private let armed = Armed()

    public init(grace: Double = 2, record: HangRecord?, sink: LineSink? = nil) {
        self.grace = grace
        timer = Watchdog.WatchThread(grace: grace) { [armed] in
            let hung = armed.call.withLock { $0 }
            record?.write(hung.identity)
            sink?.flushIfIdle()
            StandardError.line("\(hung.plugin): error: still running \(grace) s after its time limit of \(hung.timeout) s, blocked outside Lua (in a C function or a system call): the daemon ends; at its next start \(hung.plugin) stays disabled until its file changes")
            _exit(1)
        }
    }

    deinit { timer.end() }

    /// A call into `plugin` bounded by `timeout` seconds begins (0: unbounded, not armed).
    func arm(plugin: String, identity: String, timeout: Double, limiter: LuaStateLimiter?) {
        guard timeout > 0 else { return }
        armed.call.withLock {
            $0.plugin = plugin
            $0.identity = identity
            $0.timeout = timeout
        }
        timer.arm(at: Clock.monotonic() + timeout, limiter: limiter)
    }

    func disarm() { timer.disarm() }
}
