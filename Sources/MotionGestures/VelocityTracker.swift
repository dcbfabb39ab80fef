import MotionStreams

/// Least-squares velocity over the last 100 ms of input time, as Android's VelocityTracker:
/// 0 with fewer than two samples, and 0 once the newest sample is more than 40 ms old.
/// A fixed ring of samples: no allocation per event. The ring holds 128 samples, so the whole
/// 100 ms window counts for input up to 1.27 kHz (evdev touchscreens report at most a few
/// hundred frames per second).
public struct VelocityTracker {
    public static let window = 0.100
    public static let staleAfter = 0.040
    private static let capacity = 128

    private var times = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var xs = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var ys = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var head = 0
    private var count = 0

    public init() {}

    public mutating func reset() {
        count = 0
    }

    public mutating func add(t: Double, x: Double, y: Double = 0) {
        head = (head + 1) % Self.capacity
        times[head] = t
        xs[head] = x
        ys[head] = y
        if count < Self.capacity { count += 1 }
    }

    /// Velocity per second of both coordinates at input time `now`.
    public func velocity(at now: Double) -> Point {
        guard count > 0 else { return .zero }
        let newest = times[head]
        if now - newest > Self.staleAfter { return .zero }
        // Fit x(t) and y(t) by least squares over the samples within the window.
        var n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        var i = head
        for _ in 0..<count {
            let t = times[i] - newest
            if t < -Self.window - 1e-9 { break }
            n += 1; st += t; sx += xs[i]; sy += ys[i]
            stt += t * t; stx += t * xs[i]; sty += t * ys[i]
            i = (i + Self.capacity - 1) % Self.capacity
        }
        guard n >= 2 else { return .zero }
        let denominator = n * stt - st * st
        guard denominator > 1e-18 else { return .zero }
        return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
    }
}
