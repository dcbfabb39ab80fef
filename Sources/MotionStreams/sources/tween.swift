/// Tween defaults.
public enum TweenDefaults {
    /// Time between emitted values: 60 per second of input time.
    public static let frameInterval = 1.0 / 60
    /// Default timing function: ease in and out.
    public static let timingFunction = TimingFunction.easeInOut
}

/// A keyframe tween through `values` over `duration` seconds of input time (inline connection,
/// seed 003). Keyframe i is reached at `offsets[i]`·duration (default: evenly spaced; offsets
/// go from 0 to 1, ascending); segment i (between keyframes i and i+1) eases with
/// `timingFunctions[i]`, or with the only timing function given. Each subscription emits
/// `state(active)` and `next(values[0])` at once, then one value every `frameInterval` on
/// `clock`, and at `duration` exactly `next(values.last)` and `state(atRest)`.
/// Throws `OptionError` for an empty `values`, a value that is not finite, a negative duration,
/// offsets or timing functions that do not fit the values. Should a value between keyframes
/// still come out non-finite (keyframes so far apart, or a curve so steep, that the arithmetic
/// overflows), the tween stops there and `onFailure` says why: no NaN or infinity is emitted.
public func tween<T: MotionVector>(values: [T], duration: Double, offsets: [Double]? = nil,
                                   timingFunctions: [TimingFunction] = [TweenDefaults.timingFunction],
                                   frameInterval: Double = TweenDefaults.frameInterval,
                                   on clock: InputClock,
                                   onFailure: @escaping (String) -> Void = { _ in }) throws -> MotionObservable<T> {
    try OptionError.check(!values.isEmpty, "values", values, "at least one value")
    try OptionError.check(values.allSatisfy(\.isFinite), "values", values, "finite")
    try OptionError.check(duration >= 0 && duration.isFinite, "duration", duration, ">= 0")
    try OptionError.check(frameInterval > 0 && frameInterval.isFinite, "frameInterval", frameInterval, "> 0")
    let segments = max(values.count - 1, 1)
    let offsets = offsets ?? (values.count == 1 ? [0] : (0..<values.count).map { Double($0) / Double(segments) })
    try OptionError.check(offsets.count == values.count && offsets.first == 0 && (values.count == 1 || offsets.last == 1)
                              && zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 },
                          "offsets", offsets, "one per value, ascending from 0 to 1")
    try OptionError.check(timingFunctions.count == 1 || timingFunctions.count == values.count - 1,
                          "timingFunctions", timingFunctions.count, "one, or one per segment (\(values.count - 1))")

    func value(at progress: Double) -> T {
        guard values.count > 1 else { return values[0] }
        var i = 0
        while i < values.count - 2 && progress > offsets[i + 1] { i += 1 }
        let span = offsets[i + 1] - offsets[i]
        let local = span > 0 ? (progress - offsets[i]) / span : 1
        let eased = (timingFunctions.count == 1 ? timingFunctions[0] : timingFunctions[i])(local)
        return values[i] + (values[i + 1] - values[i]) * eased
    }

    return MotionObservable { observer in
        let start = clock.now
        var step = 0
        var scheduled: ScheduledAction?
        func scheduleNext() {
            step += 1
            // The last value comes at `duration` exactly, even between two frames.
            let t = min(Double(step) * frameInterval, duration)
            scheduled = clock.schedule(at: start + t) {
                if t >= duration {
                    scheduled = nil
                    observer.next(values[values.count - 1])
                    observer.state(.atRest)
                } else {
                    let next = value(at: t / duration)
                    guard next.isFinite else {
                        scheduled = nil
                        onFailure("the tween's value is not finite at progress \(t / duration) (values \(values)); stopped")
                        return
                    }
                    observer.next(next)
                    scheduleNext()
                }
            }
        }
        observer.state(.active)
        observer.next(values[0])
        if duration == 0 {
            observer.next(values[values.count - 1])
            observer.state(.atRest)
        } else {
            scheduleNext()
        }
        return { scheduled?.cancel() }
    }
}
