import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Waits until one of `fds` is ready or `seconds` have passed (nil: no limit). The timeout is
/// kept to the nanosecond: poll's whole milliseconds, rounded up so a deadline is never missed,
/// would make every value the live clock schedules up to a millisecond late (half a millisecond
/// on average).
func pollWait(_ fds: inout [pollfd], seconds: Double?) -> Int32 {
    guard let seconds else { return ppoll(&fds, nfds_t(fds.count), nil, nil) }
    // Past deadlines wait for nothing; far ones are cut to 1,000 s (the caller loops), and NaN
    // counts as now.
    let left = seconds > 0 ? min(seconds, 1000) : 0
    let whole = left.rounded(.down)
    var timeout = timespec(tv_sec: Int(whole), tv_nsec: Int(((left - whole) * 1e9).rounded(.up)).clamped(to: 0...999_999_999))
    return ppoll(&fds, nfds_t(fds.count), &timeout, nil)
}

private extension Int {
    func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
