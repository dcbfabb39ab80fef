import MotionStreams

/// Least-squares velocity over the last 100 ms of input time, as Android's VelocityTracker:
/// 0 with fewer than two samples, and 0 once the newest sample is more than 40 ms old.
/// A fixed ring of samples: no allocation per event. The ring holds 128 samples, so the whole
/// 100 ms window counts for input up to 1.27 kHz (evdev touchscreens report at most a few
/// hundred frames per second).
public struct VelocityTracker {
    /// Seconds of input time the least-squares fit looks back.
    public static let window = 0.100
    /// Seconds after which the newest sample is too old: velocity is 0.
    public static let staleAfter = 0.040
    private static let capacity = 128  // a power of two: indices wrap with a mask
    private static let mask = capacity - 1

    private struct Sample {
        var t: Double
        var x: Double
        var y: Double
    }

    private var samples = [Sample](repeating: Sample(t: 0, x: 0, y: 0), count: VelocityTracker.capacity)
    private var head = 0
    private var count = 0

    /// An empty tracker (velocity 0).
    public init() {}

    /// Forgets every sample.
    public mutating func reset() {
        count = 0
    }

    /// Adds a sample at input time `t`.
    public mutating func add(t: Double, x: Double, y: Double = 0) {
        head = (head + 1) & Self.mask
        samples.withUnsafeMutableBufferPointer { $0[head] = Sample(t: t, x: x, y: y) }
        if count < Self.capacity { count += 1 }
    }

    /// Velocity per second of both coordinates at input time `now`.
    public func velocity(at now: Double) -> Point {
        guard count > 1 else { return .zero }
        return samples.withUnsafeBufferPointer { ring in
            let newest = ring[head]
            if now - newest.t > Self.staleAfter { return .zero }
            // Fit x(t) and y(t) by least squares over the samples within the window, with
            // times and positions relative to the newest sample for precision.
            var n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
            var i = head
            for _ in 0..<count {
                let s = ring[i]
                let t = s.t - newest.t
                if t < -Self.window - 1e-9 { break }
                let x = s.x - newest.x, y = s.y - newest.y
                n += 1; st += t; sx += x; sy += y
                stt += t * t; stx += t * x; sty += t * y
                i = (i &- 1) & Self.mask
            }
            guard n >= 2 else { return .zero }
            let denominator = n * stt - st * st
            guard denominator > 1e-18 else { return .zero }
            return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
        }
    }
}
