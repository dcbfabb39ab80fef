import CLinux
import Foundation
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// The time limit's enforcer for code the Lua hook cannot reach. The watchdog is armed for each
/// stretch of work that the time limit bounds (a whole file run; one load, replay or live frame;
/// one plugin's callback) and disarmed after it. When a stretch is still going at its limit, it
/// first stops the stretch's Lua state (`LuaStateLimiter`): a script back from a C call raises
/// then, and only that state stops. If the stretch is still going `grace` seconds later, it is
/// blocked inside C (`os.execute("sleep 100")`, `io.read()` on a terminal), where nothing but
/// the process can be stopped: the watchdog writes the whole lines already made, says so and
/// ends the process with exit status 1.
///
/// One thread per watchdog, asleep while disarmed (no wake-ups), ended when the watchdog goes.
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

    /// Starts a stretch of work bounded by `timeout`, from now; at its limit `limiter`'s state
    /// (when given) is stopped.
    public func arm(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil) {
        timer?.arm(at: (now ?? Clock.monotonic()) + timeout, limiter: limiter)
    }

    public func disarm() { timer?.disarm() }

    /// Runs `body` as one armed stretch.
    /// `now`: CLOCK_MONOTONIC seconds when the caller already read it (nil: read here).
    public func bounding<T>(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil, _ body: () throws -> T) rethrows -> T {
        arm(stopping: limiter, now: now)
        defer { disarm() }
        return try body()
    }
}

extension Watchdog {
    /// The watchdog's thread and what it shares with it, behind one mutex and a condition on
    /// the monotonic clock (a wall-clock jump moves neither the limit nor the last resort).
    /// Public for hosts that arm it themselves with a limit per stretch (the daemon: one per
    /// plugin call, each with that plugin's limit).
    public final class WatchThread: @unchecked Sendable {
        /// A stretch made of calls with limits of their own (the daemon's frame: one call per
        /// plugin, `PluginWatchdog`): the host publishes the call running now where `current`
        /// reads it, so a call costs the host no lock; at the stretch's limit the thread asks
        /// which call runs, and waits for that call's own limit. A call is named by a word the
        /// publisher chose (the same word for the same call).
        public struct Calls: Sendable {
            /// The call running now: its limit and its word (nil: none, the host is between calls).
            public var current: @Sendable () -> (limit: Double, call: UInt64)?
            /// The call is at its limit: stop its state.
            public var expire: @Sendable (UInt64) -> Void
            /// The call is still running `grace` seconds after its limit.
            public var lastResort: @Sendable (UInt64) -> Void

            public init(current: @escaping @Sendable () -> (limit: Double, call: UInt64)?,
                        expire: @escaping @Sendable (UInt64) -> Void, lastResort: @escaping @Sendable (UInt64) -> Void) {
                self.current = current
                self.expire = expire
                self.lastResort = lastResort
            }
        }

        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var thread = pthread_t()
        private let grace: Double
        private let lastResort: @Sendable () -> Void
        private let calls: Calls?
        // Guarded by `mutex`.
        /// Armed with `armCalls`: the calls published decide, at most `step` seconds apart.
        private var armedCalls = false
        private var step = 0.0
        /// The last call stopped (its word), so it is stopped once.
        private var expiredCall: UInt64?
        private var limitAt = Double.infinity
        private var limiter: LuaStateLimiter?
        private var ended = false
        /// When the thread will look again by itself (infinity: only when signalled). Arming for
        /// later than that, and disarming, need no wake-up: a daemon arms and disarms around
        /// every call into every plugin, and a signal each time cost a futex call and a context
        /// switch per plugin per frame. The thread then wakes about once per limit while calls
        /// go on, and not at all once they stop.
        private var waitingUntil = Double.infinity
        private var signalCount = 0
        /// Arms since the thread last looked, and the length of the last one: a thread that
        /// wakes to find nothing armed lingers that long while calls go on, so the next arms
        /// need no signal either; once none came, it sleeps until signalled.
        private var armsSinceLook = 0
        /// Signalled, and not looked yet: another signal would change nothing.
        private var signalPending = false
        private var lastLength = 0.0
        private var kernelThreadID: pid_t?

        /// The kernel's id of the thread, once it runs (nil before): for tests.
        public var threadID: pid_t? { locked(signal: { _ in false }) { kernelThreadID } }

        /// How many times the thread was signalled so far: a test of the rule above.
        public var signals: Int { locked(signal: { _ in false }) { signalCount } }

        public convenience init(grace: Double, lastResort: @escaping @Sendable () -> Void) {
            self.init(grace: grace, lastResort: lastResort, calls: nil)
        }

        /// A thread for stretches of calls (`armCalls`), whose `calls` say what runs.
        public convenience init(grace: Double, calls: Calls) {
            self.init(grace: grace, lastResort: {}, calls: calls)
        }

        private init(grace: Double, lastResort: @escaping @Sendable () -> Void, calls: Calls?) {
            self.grace = grace
            self.lastResort = lastResort
            self.calls = calls
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
            let context = Unmanaged.passRetained(self).toOpaque()
            let started = pthread_create(&thread, nil, { context in
                let timer = Unmanaged<WatchThread>.fromOpaque(context!).takeRetainedValue()
                timer.watch()
                return nil
            }, context)
            if started != 0 {
                Unmanaged<WatchThread>.fromOpaque(context).release()
                ended = true
            }
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        public func arm(at limit: Double, limiter: LuaStateLimiter?) {
            locked(signal: { !$0.signalPending && limit < $0.waitingUntil }) {
                limitAt = limit
                self.limiter = limiter
                armedCalls = false
                armsSinceLook += 1
                lastLength = limit - Clock.monotonic()
            }
        }

        /// Starts a stretch of calls (needs `calls`), none of which ends before `limit`; each
        /// call's own limit is `step` seconds or more after it starts. The thread looks at
        /// `limit`, then at least every `step` seconds while the stretch goes on.
        public func armCalls(at limit: Double, step: Double) {
            locked(signal: { !$0.signalPending && limit < $0.waitingUntil }) {
                limitAt = limit
                limiter = nil
                armedCalls = calls != nil
                self.step = step
                armsSinceLook += 1
                lastLength = step
            }
        }

        public func disarm() {
            locked(signal: { _ in false }) {
                limitAt = .infinity
                limiter = nil
                armedCalls = false
            }
        }

        /// Ends the thread and waits for it (it is asleep or about to be).
        public func end() {
            let running = locked { () -> Bool in
                defer { ended = true }
                return !ended
            }
            guard running else { return }
            pthread_join(thread, nil)
        }

        private func locked<T>(signal: (WatchThread) -> Bool = { _ in true }, _ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer {
                if signal(self) {
                    signalCount += 1
                    signalPending = true
                    pthread_cond_signal(condition)
                }
                pthread_mutex_unlock(mutex)
            }
            return body()
        }

        private func watch() {
            // Signals go to the thread that runs Lua, which can act on them.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            kernelThreadID = gettid()
            while !ended {
                signalPending = false
                let now = Clock.monotonic()
                if armedCalls, now >= limitAt, let calls {
                    // The call running now decides: its own limit, and its own grace.
                    var wakeAt = now + step
                    if let (limit, call) = calls.current() {
                        if now >= limit + grace {
                            calls.lastResort(call)  // ends the process
                        } else if now >= limit {
                            if expiredCall != call { calls.expire(call) }
                            expiredCall = call
                            wakeAt = min(wakeAt, limit + grace)
                        } else {
                            wakeAt = min(wakeAt, limit)
                        }
                    }
                    limitAt = wakeAt
                    waitingUntil = wakeAt
                    var until = timespec(tv_sec: Int(wakeAt), tv_nsec: Int((wakeAt - wakeAt.rounded(.down)) * 1e9))
                    pthread_cond_timedwait(condition, mutex, &until)
                    continue
                }
                if now >= limitAt + grace {
                    lastResort()  // ends the process; were it to return, the stretch is over
                    limitAt = .infinity
                    limiter = nil
                    continue
                } else if now >= limitAt, let limiter {
                    // The hook stops the state once it runs Lua code again.
                    limiter.expire()
                    self.limiter = nil
                    continue
                }
                // At most a day ahead: a limit of 1e300 s must not overflow the timespec.
                let wakeAt = min(now >= limitAt ? limitAt + grace : limitAt, now + 86_400)
                let calls = armsSinceLook
                armsSinceLook = 0
                if limitAt.isInfinite && (calls == 0 || !(lastLength > 0 && lastLength < 86_400)) {
                    waitingUntil = .infinity
                    pthread_cond_wait(condition, mutex)
                } else if limitAt.isInfinite {
                    let lingerUntil = now + lastLength
                    waitingUntil = lingerUntil
                    var until = timespec(tv_sec: Int(lingerUntil), tv_nsec: Int((lingerUntil - lingerUntil.rounded(.down)) * 1e9))
                    pthread_cond_timedwait(condition, mutex, &until)
                } else {
                    waitingUntil = wakeAt
                    var until = timespec(tv_sec: Int(wakeAt), tv_nsec: Int((wakeAt - wakeAt.rounded(.down)) * 1e9))
                    pthread_cond_timedwait(condition, mutex, &until)
                }
            }
        }
    }
}
