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
}
