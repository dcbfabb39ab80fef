/// The rules every input format follows for time, so a recording means the same whatever its
/// format: times never go backwards, and the span from the first event stays within `maxSpan`.
public enum InputTime {
    /// The longest span of input time, in seconds, from the first event: about 31,700 years. Longer
    /// spans cannot come from a device or a recording (only from a corrupt file or a wrong unit), and
    /// past them doubles lose the sub-millisecond precision gesture timing needs.
    public static let maxSpan = 1e12

    /// Seconds from (`firstSec`, `firstUsec`) to (`sec`, `usec`) without overflow whatever the
    /// values: whole microseconds when they fit (so t is the correctly rounded decimal, 0.204983 and
    /// not 0.20498300000000003), doubles otherwise.
    static func seconds(sec: Int64, usec: Int64, sinceSec firstSec: Int64, usec firstUsec: Int64) -> Double {
        let (ds, o1) = sec.subtractingReportingOverflow(firstSec)
        let (du, o2) = usec.subtractingReportingOverflow(firstUsec)
        if !o1, !o2 {
            let (m, o3) = ds.multipliedReportingOverflow(by: 1_000_000)
            let (micros, o4) = m.addingReportingOverflow(du)
            if !o3, !o4 { return Double(micros) / 1_000_000 }
        }
        return (Double(sec) - Double(firstSec)) + (Double(usec) - Double(firstUsec)) / 1_000_000
    }

    /// The message for a time that is not allowed after `last` (nil when `t` is fine).
    static func problem(_ t: Double, after last: Double) -> String? {
        if !t.isFinite || abs(t) >= maxSpan {
            return "time span too large: t=\(t) s from the first event (at most \(maxSpan) s)"
        }
        if t < last { return "time goes backwards: t=\(t) after t=\(last)" }
        return nil
    }
}
