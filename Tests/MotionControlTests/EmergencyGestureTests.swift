import XCTest
import MotionControl
import MotionDaemon
import MotionGestures

final class EmergencyGestureTests: XCTestCase {
    func frame(_ t: Double, _ phase: PointerPhase, ids: [Int], dx: Double = 0) -> Frame {
        Frame(t: t, events: ids.map { PointerEvent(t: t, id: $0, phase: phase, x: Double($0) * 100 + dx, y: 200, device: nil) })
    }

    func testFiveFingersHeldStillForThreeSecondsFireOnce() {
        var g = EmergencyGesture()
        XCTAssertFalse(g.observe(frame(0, .down, ids: [1, 2, 3, 4, 5])))
        XCTAssertFalse(g.observe(frame(1, .move, ids: [1, 2, 3, 4, 5], dx: 20)))
        XCTAssertFalse(g.observe(frame(2.99, .move, ids: [1, 2, 3, 4, 5], dx: 30)))
        XCTAssertTrue(g.observe(frame(3.0, .move, ids: [1, 2, 3, 4, 5], dx: 30)))
        XCTAssertFalse(g.observe(frame(6.5, .move, ids: [1, 2, 3, 4, 5], dx: 30)), "once per touch")
        XCTAssertFalse(g.observe(frame(7, .up, ids: [1, 2, 3, 4, 5])))
        // Again after every finger lifted: fires at the lift when no event came in between.
        XCTAssertFalse(g.observe(frame(10, .down, ids: [1, 2, 3, 4, 5])))
        XCTAssertTrue(g.observe(frame(13.5, .up, ids: [1, 2, 3, 4, 5])))
    }

    func testMovingFourOrSixFingersDoNotFire() {
        var g = EmergencyGesture()
        XCTAssertFalse(g.observe(frame(0, .down, ids: [1, 2, 3, 4, 5])))
        XCTAssertFalse(g.observe(frame(2, .move, ids: [1], dx: 51)))  // a finger moved: the 3 s start again
        XCTAssertFalse(g.observe(frame(4, .move, ids: [2], dx: 10)))
        XCTAssertTrue(g.observe(frame(5, .move, ids: [2], dx: 10)))
        var four = EmergencyGesture()
        XCTAssertFalse(four.observe(frame(0, .down, ids: [1, 2, 3, 4])))
        XCTAssertFalse(four.observe(frame(5, .up, ids: [1, 2, 3, 4])))
        var six = EmergencyGesture()
        XCTAssertFalse(six.observe(frame(0, .down, ids: [1, 2, 3, 4, 5, 6])))
        XCTAssertFalse(six.observe(frame(5, .up, ids: [1, 2, 3, 4, 5, 6])))
    }

    /// Past 16 fingers down (an event file may hold any number) the fingers are kept in a
    /// dictionary; the gesture still counts them right, and fires once the five left are held still.
    func testManyFingersDownThenFiveHeldStillFire() {
        var g = EmergencyGesture()
        XCTAssertFalse(g.observe(frame(0, .down, ids: Array(1...40))))
        XCTAssertFalse(g.observe(frame(1, .move, ids: Array(1...40), dx: 10)))
        XCTAssertFalse(g.observe(frame(2, .up, ids: Array(6...40))))
        XCTAssertFalse(g.observe(frame(2.5, .move, ids: [1, 2, 3, 4, 5], dx: 60)))  // moved: the 3 s start at 2.5
        XCTAssertFalse(g.observe(frame(5.4, .move, ids: [1], dx: 70)))
        XCTAssertTrue(g.observe(frame(5.5, .move, ids: [1], dx: 70)))
        XCTAssertFalse(g.observe(frame(6, .up, ids: [1, 2, 3, 4, 5])))
        // Back to the few: a new touch of five fires again.
        XCTAssertFalse(g.observe(frame(10, .down, ids: [7, 8, 9, 10, 11])))
        XCTAssertTrue(g.observe(frame(13, .up, ids: [7, 8, 9, 10, 11])))
    }
}
