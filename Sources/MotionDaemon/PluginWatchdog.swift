import Foundation
import MotionHost
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The last resort behind a plugin's time limit. The Lua hook stops a plugin that runs Lua code
/// past its limit; one blocked inside a C function never reaches the hook, and the host's one
/// thread cannot be freed from it. The watchdog is armed around each call into a plugin; if a
/// call is still going `grace` seconds after its limit, the watchdog records the plugin
/// (`HangRecord`), writes the whole lines already made, says which plugin hung, and ends the
/// process with exit status 1 (the service's restart then starts without that plugin).
public final class PluginWatchdog: Sendable {
    public let grace: Double
    private let record: HangRecord?
    private let sink: LineSink?
    private struct Armed {
        var firesAt = Double.infinity
        var plugin = ""
        var identity = ""
        var timeout = 0.0
    }
    private let armed = Mutex(Armed())

    public init(grace: Double = 2, record: HangRecord?, sink: LineSink? = nil) {
        self.grace = grace
        self.record = record
        self.sink = sink
        let thread = Thread { [self] in watch() }
        thread.start()
    }

    /// A call into `plugin` bounded by `timeout` seconds begins (0: unbounded, not armed).
    func arm(plugin: String, identity: String, timeout: Double) {
        guard timeout > 0 else { return }
        let at = Clock.monotonic() + timeout + grace
        armed.withLock {
            $0.firesAt = at
            $0.plugin = plugin
            $0.identity = identity
            $0.timeout = timeout
        }
    }

    func disarm() {
        armed.withLock { $0.firesAt = .infinity }
    }

    private func watch() {
        // Signals go to the thread that runs Lua, which can act on them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let step = min(0.25, max(grace / 4, 0.01))
        while true {
            Thread.sleep(forTimeInterval: step)
            let now = Clock.monotonic()
            guard let hung = armed.withLock({ now > $0.firesAt ? $0 : nil }) else { continue }
            record?.write(hung.identity)
            sink?.flushIfIdle()
            StandardError.line("\(hung.plugin): error: still running \(grace) s after its time limit of \(hung.timeout) s, blocked outside Lua (a C function such as string.find with a pathological pattern): the daemon ends; at its next start \(hung.plugin) stays disabled until its file changes")
            _exit(1)
        }
    }
}
