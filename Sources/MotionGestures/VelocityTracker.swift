import MotionStreams

/// Least-squares velocity over the last 100 ms of input time, as Android's VelocityTracker:
/// 0 with fewer than two samples, and 0 once the newest sample is more than 40 ms old.
/// A fixed ring of samples: no allocation per event. The ring holds 128 samples, so the whole
/// 100 ms window counts for input up to 1.27 kHz (evdev touchscreens report at most a few
/// hundred frames per second).
///
/// The fit is kept as running sums over the window, so a sample costs the same whatever the
/// window holds: each new sample is added to the sums, each sample that falls out of the window
/// is taken out. The sums are taken relative to an anchor sample inside the window (times and
/// positions near zero, for precision), and are recomputed from the samples whenever the anchor
/// leaves the window, which bounds the rounding that adding and taking out accumulates and
/// costs about one sample's work per sample on average. Times that go back, and values that are
/// not finite, fall back to fitting the window afresh on every call, which is what the sums
/// stand for.
public struct VelocityTracker {
    /// Seconds of input time the least-squares fit looks back.
    public static let window = 0.100
    /// Seconds after which the newest sample is too old: velocity is 0.
    public static let staleAfter = 0.040

    /// The samples and sums, shared by copies of the tracker until one of them adds a sample.
    private var ring = Ring()

    /// An empty tracker (velocity 0).
    public init() {}

    /// Forgets every sample.
    public mutating func reset() {
        if !isKnownUniquelyReferenced(&ring) { ring = Ring() }
        ring.reset()
    }

    /// Adds a sample at input time `t`.
    public mutating func add(t: Double, x: Double, y: Double = 0) {
        if !isKnownUniquelyReferenced(&ring) { ring = ring.copy() }
        ring.add(t: t, x: x, y: y)
    }

    /// Velocity per second of both coordinates at input time `now`.
    public func velocity(at now: Double) -> Point {
        ring.velocity(at: now)
    }
}

private struct Sample {
    var t: Double
    var x: Double
    var y: Double
}

/// Sums over the window of u = t − anchor.t, x − anchor.x, y − anchor.y and their products.
private struct Sums {
    var n = 0.0, u = 0.0, x = 0.0, y = 0.0, uu = 0.0, ux = 0.0, uy = 0.0

    @inline(__always)
    mutating func add(_ u: Double, _ x: Double, _ y: Double) {
        n += 1; self.u += u; self.x += x; self.y += y
        uu += u * u; ux += u * x; uy += u * y
    }

    @inline(__always)
    mutating func remove(_ u: Double, _ x: Double, _ y: Double) {
        n -= 1; self.u -= u; self.x -= x; self.y -= y
        uu -= u * u; ux -= u * x; uy -= u * y
    }
}

/// The tracker's state: a fixed ring of samples and the running sums of the fit's window.
private final class Ring {
    static var capacity: Int { 128 }  // a power of two: indices wrap with a mask
    static var mask: Int { capacity - 1 }
    /// A sample older than the newest by more than this is out of the window.
    static var oldest: Double { -VelocityTracker.window - 1e-9 }
    static var staleAfter: Double { 0.040 }

    let samples = UnsafeMutablePointer<Sample>.allocate(capacity: Ring.capacity)
    var head = 0
    /// Samples added since the last reset, at most `capacity`.
    var count = 0
    /// The newest `windowCount` samples are the fit's window.
    var windowCount = 0
    var anchorIndex = 0
    var anchor = Sample(t: 0, x: 0, y: 0)
    var sums = Sums()
    /// False once a time went back or a value was not finite: every call then fits afresh.
    var isRunning = true
    /// Whether every sample since the last reset is 0 in both coordinates (either sign): the
    /// fit is then exactly +0 whichever way it is computed (every sum over x and y is +0, and
    /// a sum that is not finite fails its test), so `velocity` says so without computing it:
    /// a drag waiting for its second finger adds a zero sample per frame.
    var isAllZero = true

    init() {
        samples.initialize(repeating: Sample(t: 0, x: 0, y: 0), count: Ring.capacity)
    }

    deinit {
        samples.deallocate()
    }

    func copy() -> Ring {
        let copy = Ring()
        copy.samples.update(from: samples, count: Ring.capacity)
        copy.head = head
        copy.count = count
        copy.windowCount = windowCount
        copy.anchorIndex = anchorIndex
        copy.anchor = anchor
        copy.sums = sums
        copy.isRunning = isRunning
        copy.isAllZero = isAllZero
        return copy
    }

    func reset() {
        count = 0
        windowCount = 0
        sums = Sums()
        isRunning = true
        isAllZero = true
    }

    func add(t: Double, x: Double, y: Double) {
        let previousTime = samples[head].t
        head = (head + 1) & Ring.mask
        if count < Ring.capacity { count += 1 }
        let overwritten = samples[head]
        samples[head] = Sample(t: t, x: x, y: y)
        if x != 0 || y != 0 { isAllZero = false }  // NaN included
        guard isRunning else { return }
        // x − x is 0 exactly for every finite x, NaN for infinities and NaN: one test for all three.
        guard (t - t) + (x - x) + (y - y) == 0, windowCount == 0 || t >= previousTime else {
            isRunning = false
            return
        }
        var mustRefit = windowCount == 0
        if windowCount == Ring.capacity {
            // The ring is full: the slot just written held the window's oldest sample.
            if head == anchorIndex { mustRefit = true } else { remove(overwritten) }
        } else {
            windowCount += 1
        }
        if !mustRefit { sums.add(t - anchor.t, x - anchor.x, y - anchor.y) }
        // Times only go forward here: what fell out of the window is its oldest end.
        while windowCount > 1 {
            let oldestIndex = (head &- windowCount &+ 1) & Ring.mask
            let oldest = samples[oldestIndex]
            guard oldest.t - t < Ring.oldest else { break }
            windowCount -= 1
            if oldestIndex == anchorIndex { mustRefit = true } else if !mustRefit { remove(oldest) }
        }
        if mustRefit { refit() }
    }

    @inline(__always)
    private func remove(_ s: Sample) {
        sums.remove(s.t - anchor.t, s.x - anchor.x, s.y - anchor.y)
    }

    /// Anchors the sums at the newest sample and sums the window's samples afresh.
    private func refit() {
        anchorIndex = head
        anchor = samples[head]
        var fresh = Sums()
        var i = head
        for _ in 0..<windowCount {
            let s = samples[i]
            fresh.add(s.t - anchor.t, s.x - anchor.x, s.y - anchor.y)
            i = (i &- 1) & Ring.mask
        }
        sums = fresh
    }

    func velocity(at now: Double) -> Point {
        guard count > 1, !isAllZero else { return .zero }
        let newest = samples[head]
        if now - newest.t > Ring.staleAfter { return .zero }
        guard isRunning else { return fitted() }
        let n = sums.n
        guard n >= 2 else { return .zero }
        let denominator = n * sums.uu - sums.u * sums.u
        guard denominator > 1e-18 else { return .zero }
        let v = Point(x: (n * sums.ux - sums.u * sums.x) / denominator, y: (n * sums.uy - sums.u * sums.y) / denominator)
        // Sums that overflowed (huge coordinates) say nothing: the fresh fit says what they stand for.
        return v.x.isFinite && v.y.isFinite ? v : fitted()
    }

    /// The least-squares fit over the window, from the samples: x(t) and y(t) by least squares
    /// over the samples within the window, with times and positions relative to the newest
    /// sample for precision.
    private func fitted() -> Point {
        let newest = samples[head]
        var n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        var i = head
        for _ in 0..<count {
            let s = samples[i]
            let t = s.t - newest.t
            if t < Ring.oldest { break }
            let x = s.x - newest.x, y = s.y - newest.y
            n += 1; st += t; sx += x; sy += y
            stt += t * t; stx += t * x; sty += t * y
            i = (i &- 1) & Ring.mask
        }
        guard n >= 2 else { return .zero }
        let denominator = n * stt - st * st
        guard denominator > 1e-18 else { return .zero }
        return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
    }
}
