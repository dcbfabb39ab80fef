import MotionLua
import MotionStreams
#if canImport(Glibc)
import Glibc
#endif

/// One plugin's time limit, call by call: the one owner of what a call into a plugin does for
/// it — the deadline (kept once, in the plugin's Lua state: `LuaRuntime.setDeadline`), the
/// watch word the watchdog's thread reads (`Watchdog.enterCall`/`leave`) and the clock both
/// count on. `Plugin` holds one and calls `begin` and `end` around each call. Its fields are
/// plain values (no reference counted): reading it from the plugin per call copies nothing that
/// needs a retain.
///
/// The clock is the kernel's coarse monotonic clock — the monotonic time at the last tick,
/// served from memory the kernel shares with the process (vDSO), never a system call, even where
/// the precise clock's read is one (a VM whose clock source is HPET: two system calls per frame
/// with one plugin) — plus one tick (its resolution: 1 to 10 ms, 4 ms with Debian's kernels).
/// So it is never earlier than the precise clock: a limit counted from it is never shorter than
/// the plugin's, and at most a tick longer. A call's CPU time is the ticks its start and end
/// reads span, times a tick: each call is counted to within a tick, and over many calls, whose
/// starts fall anywhere between ticks, the sum is the time spent (docs/daemon.md). The host reads
/// it once before a frame's first call and once after each call: the end of one call is the
/// start of the next.
struct TimeLimit {
    /// Seconds each call may run (0: no limit).
    var timeout = 0.0
    /// The watchdog whose thread watches the calls, and this plugin's slot in it. Unretained:
    /// its owner (`Plugin.watchdog`) holds it while it is set here.
    private var watch: (watchdog: Unretained<Watchdog>, slot: Int)?
    /// `resolution`, kept here: read for every call.
    private let tick = TimeLimit.resolution

    /// One tick of the coarse clock, seconds (what `clock_getres` says of it).
    static let resolution: Double = {
        var ts = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &ts) == 0 else { return 0.01 }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }()

    /// Monotonic seconds, no earlier than `Clock.monotonic()` now and at most a tick later,
    /// for a caller that keeps `resolution` at hand (`tick`): a global's every read asks whether
    /// it was made yet.
    @inline(__always)
    static func now(tick: Double) -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 + tick
    }

    /// The coarse clock now (a caller with a clock of its own, as tests inject, reads that).
    @inline(__always)
    func coarseNow() -> Double { TimeLimit.now(tick: tick) }

    /// Watched by `watchdog` in `slot` (nil: by no watchdog).
    mutating func watch(by watchdog: Watchdog?, slot: Int?) {
        if let watchdog, let slot {
            watch = (Unretained(watchdog), slot)
        } else {
            watch = nil
        }
    }

    /// A call begins at `start`: its state's deadline and the watchdog's word.
    @inline(__always)
    func begin(_ runtime: LuaRuntime, from start: Double) {
        guard timeout > 0 else { return }
        let deadline = start + timeout
        // A call whose deadline is the one its state has — its start read in the same tick of the
        // coarse clock as the call before's, as when frames come faster than ticks — sets none:
        // the state cannot have been stopped at that deadline meanwhile, as the clock, no earlier
        // than the precise one, has not reached the end of that tick, so not the deadline a
        // limit later either.
        if deadline != runtime.deadline { runtime.setDeadline(deadline) }
        if let (watchdog, slot) = watch {
            watchdog.with { $0.enterCall(slot, start: start, limit: deadline) }
        }
    }

    /// A call ended (its end read from the clock by the caller, the start of the next call).
    /// The state's deadline stays until the next call sets its own: between calls no Lua code of
    /// the plugin runs (its finalizers run inside calls; closing its state runs none), so a call
    /// sets its deadline once, and only when it differs (`begin`).
    @inline(__always)
    func ended() {
        leave()
    }

    /// A call ended under `run`'s policy: no CPU time to account for, no next plugin to start a
    /// time limit for; the state's deadline is cleared, as `run` clears it.
    @inline(__always)
    func endUncounted(_ runtime: LuaRuntime) {
        guard timeout > 0 else { return }
        leave()
        runtime.setDeadline(0)
    }

    @inline(__always)
    private func leave() {
        if timeout > 0, let (watchdog, _) = watch { watchdog.with { $0.leave() } }
    }
}
