import CLinux
import MotionLua
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one watch thread of the time limits (`Watchdog`'s, in both its configurations). It
/// watches calls, each with a limit of its own, which the host's thread publishes in one word
/// (`Calls.current`, `WatchBoard`) so that a call takes no lock; a stretch of work bounded as a
/// whole (a file run, a load, a replay) is one such call. At the running call's limit the thread
/// stops that call's state, `grace` seconds later the process.
///
/// The thread and what it shares with it are behind one mutex; it sleeps on a timer of the
/// monotonic clock. Invariants (each relied on below):
/// - Everything but `watching` is guarded by `mutex`, which the thread holds except while it sleeps.
/// - `waitingUntil` is when the timer fires next (infinity: not set). Arming for later than it
///   and disarming do not touch the timer; a look that finds nothing armed leaves it unset. So a
///   disarmed thread never wakes, and a host that arms and disarms around every frame makes no
///   system call for it.
/// - While `watching` is true the thread looks at least every `step` seconds. The host publishes
///   a call and then reads `watching`; the thread clears `watching` and then reads the call; both
///   sequentially consistent, so one of them sees the other: no published call goes unwatched.
/// - A state is stopped once per limit (`expiredCall`).
/// - SIGINT and SIGTERM are blocked on the thread: they reach the thread that runs Lua, which
///   can act on them.
public final class WatchThread: @unchecked Sendable {
    /// Calls with limits of their own (the daemon's frame: one call per plugin; a stretch of
    /// `run`: one call): the host publishes the call running now where `current` reads it, so
    /// a call costs the host no lock; at the first look the thread asks which call runs, and
    /// waits for that call's own limit. A call is named by a word the publisher chose (the same
    /// word for the same call).
    public struct Calls: Sendable {
        /// The call running now: its limit and its word (nil: none, the host is between calls).
        /// Read sequentially consistent: see `watchCalls`.
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
    /// What the thread sleeps on: a CLOCK_MONOTONIC timer (a wall-clock jump moves neither
    /// the limit nor the last resort). Another thread moves or cancels the thread's next
    /// look by setting it, which wakes nobody: an idle host cancels a look that would only
    /// find nothing armed (`quiesce`), so nothing wakes while it waits for input.
    private let timer: Int32
    private var thread = pthread_t()
    private let grace: Double
    private let calls: Calls
    // Guarded by `mutex`.
    /// Armed with `armCalls`: the calls published decide, at most `step` seconds apart.
    private var armedCalls = false
    private var step = 0.0
    /// The last call stopped (its word), so it is stopped once.
    private var expiredCall: UInt64?
    /// The next look (infinity: none armed).
    private var limitAt = Double.infinity
    private var ended = false
    /// When the thread will look next (its timer; infinity: not set). Arming for later than
    /// that, and disarming, change nothing: a daemon arms and disarms around every frame,
    /// and a system call for each would cost more than the thread's one look per limit
    /// while calls go on. A look that finds nothing armed leaves the timer unset, so the
    /// thread sleeps until the next arm sets it.
    private var waitingUntil = Double.infinity
    private var signalCount = 0
    private var kernelThreadID: pid_t?
    /// Whether stretches of calls are watched (`armCalls`), readable without the mutex: a
    /// host publishes each call (`Calls.current`) and re-arms only when this is false, so a
    /// frame costs no lock. The thread clears it at a look that finds no call running and
    /// then stops looking (no timer, no wake-up) until a call re-arms it. Both sides store
    /// then load sequentially consistent (the host its call, then this; the thread this, then
    /// the call), so one of them sees the other: either the host re-arms, or the thread sees
    /// the call and goes on watching it.
    private let watching = Atomic<Bool>(false)

    /// Test seam, not API: the kernel's id of the thread, once it runs (nil before).
    var threadID: pid_t? { locked { kernelThreadID } }

    /// Whether the thread was started (false: no timer or no thread; nothing is watched).
    public private(set) var isRunning = false

    /// Test seam, not API: how many times an arm set the thread's timer so far, the system
    /// calls the rule above keeps off the per-frame path (`WatchdogStateTests`).
    var signals: Int { locked { signalCount } }

    /// Test seam, not API: when the thread will wake by itself (monotonic seconds; nil: only
    /// once armed), what an idle host must see nil (`quiesce`).
    var nextLook: Double? { locked { waitingUntil.isFinite ? waitingUntil : nil } }

    /// A thread for calls (`armCalls`, `watchCalls`), whose `calls` say what runs.
    public init(grace: Double, calls: Calls) {
        self.grace = grace
        self.calls = calls
        pthread_mutex_init(mutex, nil)
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC))
        guard timer >= 0 else {
            // No timer (out of descriptors): no thread, no limit beyond the Lua hook's.
            ended = true
            return
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            let timer = Unmanaged<WatchThread>.fromOpaque(context!).takeRetainedValue()
            timer.watch()
            return nil
        }, context)
        if started != 0 {
            Unmanaged<WatchThread>.fromOpaque(context).release()
            ended = true
        } else {
            isRunning = true
        }
    }

    deinit {
        if timer >= 0 { close(timer) }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Starts a stretch of calls, none of which ends before `limit`; each
    /// call's own limit is `step` seconds or more after it starts. The thread looks at
    /// `limit`, then at least every `step` seconds while the stretch goes on.
    public func armCalls(at limit: Double, step: Double) {
        locked {
            limitAt = limit
            armedCalls = true
            self.step = step
            watching.store(armedCalls, ordering: .sequentiallyConsistent)
            lookNoLaterThan(limit)
        }
    }

    /// A call was just published (`Calls.current`, stored sequentially consistent): arms
    /// stretches of calls as `armCalls` does unless they are watched already, as they stay
    /// from one call (and frame) to the next until a look finds none running. No lock and no
    /// system call then: an atomic load per call.
    @inline(__always)
    public func watchCalls(firstLookAt limit: Double, step: Double) {
        if !watching.load(ordering: .sequentiallyConsistent) { armCalls(at: limit, step: step) }
    }

    public func disarm() {
        locked {
            limitAt = .infinity
            armedCalls = false
            watching.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// The host is about to wait for input with no call running: the thread's pending look
    /// (at the last call's limit), which would find nothing to do, is cancelled, so nothing
    /// wakes while the host waits. One system call when a look is pending (none otherwise); the
    /// next arm sets the timer again. With a call published (a stretch armed), it changes nothing.
    public func quiesce() {
        locked {
            // The watch stays armed between calls (`watchCalls`): none runs while the host
            // waits, and the next call arms it again.
            if armedCalls, calls.current() == nil {
                armedCalls = false
                limitAt = .infinity
                watching.store(false, ordering: .sequentiallyConsistent)
            }
            guard limitAt.isInfinite, waitingUntil.isFinite, !ended else { return }
            setTimer(.infinity)
        }
    }

    /// Ends the thread and waits for it (it is asleep or about to be).
    public func end() {
        let running = locked { () -> Bool in
            defer { ended = true }
            if !ended { setTimer(0) }  // now: the thread looks, sees `ended`, and returns
            return !ended
        }
        guard running else { return }
        pthread_join(thread, nil)
    }

    /// Under the mutex: the thread looks at `limit` at the latest.
    private func lookNoLaterThan(_ limit: Double) {
        guard limit < waitingUntil, !ended else { return }
        signalCount += 1
        setTimer(limit)
    }

    /// Under the mutex: the thread's next look at `at` (monotonic seconds; infinity: none,
    /// until the timer is set again; at or before now: at once).
    private func setTimer(_ at: Double) {
        waitingUntil = at
        var spec = itimerspec()
        if at.isFinite {
            // At most a day ahead: a limit of 1e300 s must not overflow the timespec. A time
            // already past is one nanosecond after the clock's zero (a zero value would
            // cancel the timer instead).
            let bounded = min(at, Clock.monotonic() + 86_400)
            let whole = bounded.rounded(.down)
            spec.it_value = bounded > 0
                ? timespec(tv_sec: Int(whole), tv_nsec: Int((bounded - whole) * 1e9))
                : timespec(tv_sec: 0, tv_nsec: 1)
            if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Sleeps until the timer fires (or the next look set by another thread), releasing the
    /// mutex meanwhile.
    private func sleep(until at: Double) {
        setTimer(at)
        pthread_mutex_unlock(mutex)
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, 8)  // EINTR: a look too early, which changes nothing
        pthread_mutex_lock(mutex)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private func watch() {
        // Signals go to the thread that runs Lua, which can act on them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // A watched state (`LuaRuntime.isWatched`) runs until this thread stops it: it wakes
        // at the limit, not up to the default 50 µs of slack later.
        _ = ms_settimerslack(1)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        kernelThreadID = gettid()
        while !ended {
            let now = Clock.monotonic()
            if armedCalls, now >= limitAt {
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
                } else {
                    // No call runs: the watch stops until a call arms it again (`watching`),
                    // unless one was published meanwhile.
                    watching.store(false, ordering: .sequentiallyConsistent)
                    if calls.current() == nil {
                        armedCalls = false
                        limitAt = .infinity
                        sleep(until: .infinity)
                        continue
                    }
                    watching.store(true, ordering: .sequentiallyConsistent)
                    continue
                }
                limitAt = wakeAt
                sleep(until: wakeAt)
                continue
            }
            // Nothing armed (or not due yet): asleep until an arm sets the timer.
            sleep(until: limitAt)
        }
    }
}
