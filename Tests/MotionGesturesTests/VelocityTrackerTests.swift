import Testing
import MotionStreams
@testable import MotionGestures

@Suite struct VelocityTrackerTests {
    @Test func constantSpeedOfTenUnitsEvery16msIs625PerSecond() {
        var tracker = VelocityTracker()
        for k in 0...20 { tracker.add(t: 0.016 * Double(k), x: 10 * Double(k), y: -5 * Double(k)) }
        let velocity = tracker.velocity(at: 0.32)
        #expect(close(velocity.x, 625, 1e-6))
        #expect(close(velocity.y, -312.5, 1e-6))
    }

    @Test func fewerThanTwoSamplesIsZero() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity(at: 0) == .zero)
        tracker.add(t: 0, x: 100)
        #expect(tracker.velocity(at: 0) == .zero)
    }

    @Test func zeroOnceTheNewestSampleIsMoreThan40msOld() {
        var tracker = VelocityTracker()
        tracker.add(t: 0, x: 0)
        tracker.add(t: 0.016, x: 10)
        #expect(close(tracker.velocity(at: 0.056).x, 625, 1e-6))  // exactly 40 ms: still counts
        #expect(tracker.velocity(at: 0.057) == .zero)
    }

    @Test func onlyTheLast100msCount() {
        var tracker = VelocityTracker()
        tracker.add(t: 0, x: 0)
        tracker.add(t: 0.1, x: 1000)  // fast, but more than 100 ms before the newest samples
        tracker.add(t: 0.25, x: 1000)
        tracker.add(t: 0.3, x: 1010)
        #expect(close(tracker.velocity(at: 0.3).x, 200, 1e-9))
    }

    @Test func theWholeWindowCountsAtOneKilohertz() {
        // Still until 0.15 s, then 1000 units/s: the fit covers 0.1…0.2 s (101 samples).
        var tracker = VelocityTracker()
        func x(_ t: Double) -> Double { max(0, t - 0.15) * 1000 }
        for k in 0...200 { tracker.add(t: Double(k) / 1000, x: x(Double(k) / 1000)) }
        let samples = (100...200).map { (Double($0) / 1000, x(Double($0) / 1000)) }
        let n = Double(samples.count)
        let st = samples.reduce(0) { $0 + $1.0 }, sx = samples.reduce(0) { $0 + $1.1 }
        let stt = samples.reduce(0) { $0 + $1.0 * $1.0 }, stx = samples.reduce(0) { $0 + $1.0 * $1.1 }
        let expected = (n * stx - st * sx) / (n * stt - st * st)
        #expect(close(tracker.velocity(at: 0.2).x, expected, 1e-6))
        #expect(expected < 800)  // a window of only the last 32 samples would read 1000
    }

    /// The definition the tracker's running sums stand for: a least-squares fit over the last
    /// (at most 128) samples back from the newest, as long as they are within the window.
    private static func fit(_ samples: [(t: Double, x: Double)]) -> Double {
        guard let newest = samples.last else { return 0 }
        var n = 0.0, st = 0.0, sx = 0.0, stt = 0.0, stx = 0.0
        for s in samples.suffix(128).reversed() {
            let t = s.t - newest.t
            if t < -VelocityTracker.window - 1e-9 { break }
            let x = s.x - newest.x
            n += 1; st += t; sx += x; stt += t * t; stx += t * x
        }
        let denominator = n * stt - st * st
        return n >= 2 && denominator > 1e-18 ? (n * stx - st * sx) / denominator : 0
    }

    @Test func aLongIrregularDragFitsItsWindowOnEverySample() {
        // 20,000 samples far from the origin, at intervals from 0 (equal times) to 30 ms, with
        // stretches at 2 kHz (more samples than the ring holds in 100 ms) and resets.
        var tracker = VelocityTracker()
        var samples: [(t: Double, x: Double)] = []
        var t = 5000.0, x = 1e6
        var worst = 0.0
        for k in 0..<20_000 {
            if k % 4999 == 4998 { tracker.reset(); samples.removeAll() }
            let step = [0.0, 0.0005, 0.008, 0.016, 0.03][(k * 7 + k / 1000) % 5]
            t += k / 2000 % 3 == 1 ? 0.0005 : step
            x += Double((k * 37) % 23) - 11
            tracker.add(t: t, x: x)
            samples.append((t, x))
            let expected = Self.fit(samples)
            let v = tracker.velocity(at: t).x
            worst = max(worst, abs(v - expected) / max(1, abs(expected)))
        }
        #expect(worst < 1e-9)
    }

    @Test func timesThatGoBackAreFittedAsTheWindowStands() {
        var tracker = VelocityTracker()
        let samples: [(t: Double, x: Double)] = [(0, 0), (0.016, 10), (0.010, 20), (0.032, 30), (0.04, 45)]
        for (k, s) in samples.enumerated() {
            tracker.add(t: s.t, x: s.x)
            #expect(tracker.velocity(at: s.t).x == Self.fit(Array(samples[...k])))
        }
    }

    @Test func aNonFiniteSampleGivesWhatTheFitGives() {
        var tracker = VelocityTracker()
        tracker.add(t: 0, x: 0)
        tracker.add(t: 0.016, x: 10)
        tracker.add(t: 0.032, x: .nan)
        #expect(tracker.velocity(at: 0.032).x.isNaN)
        tracker.add(t: 0.2, x: 30)
        tracker.add(t: 0.216, x: 40)
        #expect(close(tracker.velocity(at: 0.216).x, 625, 1e-9))
    }

    /// A drag waiting for its second finger adds a zero sample per frame: while every sample is
    /// zero (either sign) the tracker answers +0 without fitting, which is what the fit gives,
    /// sign included (it reaches the output as `0`, never `-0`); the first sample that moves is
    /// fitted with the zeros in its window, and a reset starts over.
    @Test func zeroSamplesGivePlusZeroAndCountOnceTheValueMoves() {
        var tracker = VelocityTracker()
        var samples: [(t: Double, x: Double)] = []
        for k in 0..<20 {
            let t = Double(k) * 0.008
            tracker.add(t: t, x: k % 2 == 0 ? 0 : -0.0, y: -0.0)
            samples.append((t, 0))
            let v = tracker.velocity(at: t)
            #expect(v.x.bitPattern == 0 && v.y.bitPattern == 0)
        }
        tracker.add(t: 0.16, x: 8)
        samples.append((0.16, 8))
        #expect(close(tracker.velocity(at: 0.16).x, Self.fit(samples), 1e-9))
        // The window: twelve zeros from t = 0.064 on and the 8: slope 48 / 182 units per 8 ms.
        #expect(close(tracker.velocity(at: 0.16).x, 48.0 / 182 / 0.008, 1e-6))
        tracker.reset()
        tracker.add(t: 1, x: 0)
        tracker.add(t: 1.008, x: -0.0)
        #expect(tracker.velocity(at: 1.008).x.bitPattern == 0)
    }

    @Test func aCopyKeepsItsOwnSamples() {
        var tracker = VelocityTracker()
        tracker.add(t: 0, x: 0)
        tracker.add(t: 0.016, x: 10)
        var copy = tracker
        copy.add(t: 0.032, x: 100)
        #expect(close(tracker.velocity(at: 0.032).x, 625, 1e-9))
        #expect(copy.velocity(at: 0.032).x > 2000)
        tracker.reset()
        #expect(tracker.velocity(at: 0.032) == .zero)
        #expect(copy.velocity(at: 0.032).x > 2000)
    }
}
