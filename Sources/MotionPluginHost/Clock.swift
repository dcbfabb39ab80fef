#if canImport(Glibc)
import Glibc
#endif

public enum Clock {
    /// Inlinable: a daemon reads it after every plugin call.
    @inlinable
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
