#if canImport(Glibc)
import Glibc
#endif

/// The clock of the host's calls into its plugins: read before a frame's first call and after
/// each call, for each call's time limit (it counts from the call's start) and each plugin's
/// CPU time (`ctl status`). It is the kernel's coarse monotonic clock — the monotonic time at the
/// last tick, served from memory the kernel shares with the process (vDSO), never a system call,
/// even where the precise clock's read is one (a VM whose clock source is HPET: two system calls
/// per frame with one plugin) — plus one tick (its resolution: 1 to 10 ms, 4 ms with Debian's
/// kernels). So it is never earlier than the precise clock: a limit counted from it is never
/// shorter than the plugin's, and at most a tick longer. A call's CPU time is the ticks its
/// start and end reads span, times a tick: each call is counted to within a tick, and over many
/// calls, whose starts fall anywhere between ticks, the sum is the time spent (docs/daemon.md).
public enum PluginClock {
    /// One tick of the coarse clock, seconds (what `clock_getres` says of it).
    public static let resolution: Double = {
        var ts = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &ts) == 0 else { return 0.01 }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }()

    /// Monotonic seconds, no earlier than `Clock.monotonic()` now and at most a tick later.
    @inline(__always)
    public static func now() -> Double { now(tick: resolution) }

    /// `now()` for a caller that keeps `resolution` at hand (`tick`): a global's every read
    /// asks whether it was made yet.
    @inline(__always)
    public static func now(tick: Double) -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 + tick
    }
}
