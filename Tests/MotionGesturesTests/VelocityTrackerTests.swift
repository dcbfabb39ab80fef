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
}
