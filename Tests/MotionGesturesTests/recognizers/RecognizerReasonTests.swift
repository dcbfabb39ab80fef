import Testing
import MotionStreams
@testable import MotionGestures

/// Everything an observer hears, as the monitor prints it.
private final class Explained: RecognizerObserver {
    var reports: [RecognizerReport] = []
    var lines: [String] { reports.map(\.line) }

    func recognizer(_ recognizer: GestureRecognizer, changed change: RecognizerChange) {
        reports.append(RecognizerReport(recognizer, change))
    }
}

/// A dispatcher feeding `recognizers`, with an observer on all of them.
private func watched(_ recognizers: GestureRecognizer...) -> (PointerDispatcher, Explained) {
    let input = PointerDispatcher()
    recognizers.forEach(input.add)
    let explained = Explained()
    input.recognizerObserver = explained
    return (input, explained)
}

/// `n` pointers going down at once, spaced 10 units apart on x from (x, y).
private func downs(_ t: Double, _ n: Int, x: Double = 100, y: Double = 100) -> Frame {
    Frame(t: t, events: (1...n).map { PointerEvent(t: t, id: $0, phase: .down, x: x + Double($0 - 1) * 10, y: y) })
}

/// The same pointers all moved by (dx, dy), in `phase` (move or up).
private func moved(_ t: Double, _ n: Int, dx: Double, dy: Double = 0, phase: PointerPhase = .move,
                   x: Double = 100, y: Double = 100) -> Frame {
    Frame(t: t, events: (1...n).map { PointerEvent(t: t, id: $0, phase: phase, x: x + Double($0 - 1) * 10 + dx, y: y + dy) })
}

@Suite struct RecognizerReasonTests {
    @Test func aHoldFailsBecauseAFingerMovedPastItsLimit() throws {
        let hold = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let (input, explained) = watched(hold)
        input.dispatch(frame(0.1, (1, .down, 100, 100)))
        input.dispatch(frame(0.2, (1, .move, 100, 114.2)))
        #expect(explained.lines == ["0.200 hold#1(fingers=1) failed: moved 14.2 > 10 units"])
        let report = try #require(explained.reports.first)
        #expect(report.reason == "moved")
        #expect(close(report.value ?? 0, 14.2, 1e-9))
        #expect(report.limit == 10)
        #expect(report.unit == "units")
    }

    @Test func aHoldSaysItLiftedEarlyOrHadTooFewFingersOrWasHeld() throws {
        let hold = try HoldGestureRecognizer()  // two fingers at least, 0.5 s
        let (input, explained) = watched(hold)
        input.dispatch(downs(0, 2))
        input.dispatch(moved(0.3, 2, dx: 0, phase: .up))
        input.dispatch(downs(1, 1))
        input.dispatch(moved(1.2, 1, dx: 0, phase: .up))
        input.dispatch(downs(2, 2))
        input.dispatch(moved(2.7, 2, dx: 1, phase: .up))
        #expect(explained.lines == [
            "0.300 hold#1 failed: lifted early 0.3 < 0.5 s",
            "1.200 hold#1 failed: too few fingers 1 < 2",
            "2.500 hold#1 began: held 0.5 s",
            "2.700 hold#1 ended: lifted",
        ])
        #expect(explained.reports[1].value == 1)
        #expect(explained.reports[1].limit == 2)
        #expect(explained.reports[1].unit == "fingers")
    }

    @Test func aSwipeSaysWhichTestItFailed() throws {
        let short = try SwipeGestureRecognizer(fingers: 3)
        let (input, explained) = watched(short)
        input.dispatch(downs(0, 3))
        input.dispatch(moved(0.1, 3, dx: 12))
        input.dispatch(moved(0.2, 3, dx: 12, phase: .up))
        #expect(explained.lines == ["0.200 swipe#1(fingers=3) failed: too short 12 < 20 units"])
        #expect(explained.reports[0].reason == "tooShort")
        #expect(explained.reports[0].value == 12)
        #expect(explained.reports[0].limit == 20)
    }

    @Test func aSwipeTooSlowInTheWrongDirectionOrFromTheWrongPlace() throws {
        let slow = try SwipeGestureRecognizer(fingers: 2, minVelocity: 100)
        let right = try SwipeGestureRecognizer(fingers: 2, direction: .right)
        let edge = try SwipeGestureRecognizer(element: Element(x: 0, y: 0, width: 300, height: 200), fingers: 2,
                                              from: .edge(.left, depth: 10))
        let (input, explained) = watched(slow, right, edge)
        input.dispatch(downs(0, 2, x: 40))
        input.dispatch(moved(1, 2, dx: -30, phase: .up, x: 40))  // 30 units left in 1 s
        #expect(explained.lines == [
            "1.000 swipe#1(fingers=2) failed: too slow 30 < 100 units/s",
            "1.000 swipe#2(fingers=2, direction=right) failed: wrong direction left, wants right",
            "1.000 swipe#3(fingers=2) failed: started outside from=left: 45 > 10 units from the edge",
        ])
        #expect(explained.reports[2].value == 45)  // the centroid of (40, 50) started 45 from the edge
        #expect(explained.reports[2].reason == "outsideZone")
    }

    @Test func aSwipeRecognizedSaysWhatItMatched() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        let (input, explained) = watched(swipe)
        input.dispatch(downs(0, 2))
        input.dispatch(moved(0.2, 2, dx: 32.5, phase: .up))
        #expect(explained.lines == ["0.200 swipe#1(fingers=2) recognized: right 32.5 >= 20 units"])
        #expect(explained.reports[0].reason == "matched")
    }

    @Test func moreFingersThanAGestureIsMadeWithAreCounted() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        let (input, explained) = watched(swipe)
        input.dispatch(downs(0, 3))
        #expect(explained.lines == ["0.000 swipe#1(fingers=2) failed: too many fingers 3 > 2"])
        #expect(explained.reports[0].reason == "tooManyFingers")
    }

    @Test func aTapSaysItMovedWasHeldTooLongOrTimedOut() throws {
        let tap = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        let (input, explained) = watched(tap, double)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.05, (1, .up, 105, 100)))
        input.dispatch(frame(1, (2, .down, 100, 100)))
        input.advance(to: 1.5)
        input.dispatch(frame(1.6, (2, .up, 100, 100)))
        input.dispatch(frame(2, (3, .down, 100, 100)))
        input.dispatch(frame(2.05, (3, .up, 100, 100)))
        input.advance(to: 3)
        #expect(explained.lines == [
            "0.050 tap#1 failed: moved 5 > 3 units",
            "0.050 tap#2(taps=2) failed: moved 5 > 3 units",
            "1.300 tap#1 failed: held too long: still down after 0.3 s",
            "1.300 tap#2(taps=2) failed: held too long: still down after 0.3 s",
            "2.050 tap#1 recognized: 1 tap",
            "2.350 tap#2(taps=2) failed: timed out: tap 2 of 2 did not start within 0.3 s",
        ])
        #expect(explained.reports[5].reason == "timedOut")
        #expect(explained.reports[5].limit == 0.3)
    }

    @Test func aDragPinchAndRotationSayTheirThreshold() throws {
        let drag = try TranslationGestureRecognizer()  // 5 units
        let pinch = try ScaleGestureRecognizer()  // 0.05
        let rotation = try RotationGestureRecognizer()
        let (input, explained) = watched(drag, pinch, rotation)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.1, (1, .up, 103, 104)))  // 5 units: not more than 5
        input.dispatch(frame(1, (1, .down, 100, 100), (2, .down, 200, 100)))
        input.dispatch(frame(1.1, (1, .move, 103, 100), (2, .move, 209, 100)))  // the centroid 6 on, 6 % apart
        input.dispatch(frame(1.2, (1, .up, 103, 100), (2, .up, 209, 100)))
        #expect(explained.lines == [
            "0.100 translation#1 failed: lifted below the threshold 5 <= 5 units",
            "0.100 scale#2 failed: too few fingers 1 < 2",
            "0.100 rotation#3 failed: too few fingers 1 < 2",
            "1.100 translation#1 began: past the threshold 6 > 5 units",
            "1.100 scale#2 began: past the threshold 0.06 > 0.05",
            "1.200 translation#1 ended: lifted",
            "1.200 scale#2 ended: lifted",
            "1.200 rotation#3 failed: lifted below the threshold 0 <= 0.0873 rad",
        ])
    }

    @Test func aSwipeWaitsForItsRivalThenIsReleasedOrLoses() throws {
        let hold = try HoldGestureRecognizer(element: Element(x: 0, y: 0, width: 100, height: 100), fingers: 2)
        let swipe = try SwipeGestureRecognizer(element: Element(x: 200, y: 0, width: 200, height: 100), fingers: 2)
        swipe.require(toFail: hold)
        let (input, explained) = watched(hold, swipe)
        // Two fingers rest in the hold's element while two swipe in the swipe's: the swipe waits.
        input.dispatch(frame(0, (1, .down, 10, 10), (2, .down, 20, 10), (3, .down, 210, 10), (4, .down, 220, 10)))
        input.dispatch(frame(0.1, (3, .up, 240, 10), (4, .move, 250, 10)))
        input.dispatch(frame(0.2, (1, .move, 10, 30)))  // the hold fails: the swipe is released
        input.dispatch(frame(0.3, (1, .up, 10, 30), (2, .up, 20, 10), (4, .up, 250, 10)))
        // Again, but the hold begins while the swipe waits: the swipe cannot happen.
        input.dispatch(frame(1, (5, .down, 10, 10), (6, .down, 20, 10), (7, .down, 210, 10), (8, .down, 220, 10)))
        input.dispatch(frame(1.1, (7, .up, 240, 10), (8, .move, 250, 10)))
        input.advance(to: 1.5)
        #expect(explained.lines == [
            "0.100 swipe#2(fingers=2) waiting: waiting for rival hold#1",
            "0.200 hold#1(fingers=2) failed: moved 20 > 3 units",
            "0.200 swipe#2(fingers=2) recognized: rival hold#1 failed: released",
            "1.100 swipe#2(fingers=2) waiting: waiting for rival hold#1",
            "1.500 hold#1(fingers=2) began: held 0.5 s",
            "1.500 swipe#2(fingers=2) failed: rival hold#1 began",
        ])
        #expect(explained.reports[0].reason == "waitingForRival")
        #expect(explained.reports[2].reason == "rivalFailed")
        #expect(explained.reports[2].rival == "hold#1")
        #expect(explained.reports[5].reason == "rivalBegan")
    }

    @Test func aSwipeWaitingForAHoldSaysSo() throws {
        let hold = try HoldGestureRecognizer(fingers: 2, maxMovement: 100)
        let swipe = try SwipeGestureRecognizer(fingers: 2, minDistance: 10)
        swipe.require(toFail: hold)
        let (input, explained) = watched(hold, swipe)
        input.dispatch(downs(0, 2))
        input.dispatch(frame(0.1, (1, .up, 120, 100), (2, .move, 130, 100)))  // the hold fails at the lift, then the swipe decides
        input.dispatch(frame(0.2, (2, .up, 130, 100)))
        input.dispatch(downs(1, 2))
        input.dispatch(frame(1.1, (1, .move, 120, 100), (2, .move, 130, 100)))
        input.advance(to: 1.5)  // the hold begins while the swipe's fingers are down
        #expect(explained.lines == [
            "0.100 hold#1(fingers=2) failed: lifted early 0.1 < 0.5 s",
            "0.100 swipe#2(fingers=2) recognized: right 20 >= 10 units",
            "1.500 hold#1(fingers=2) began: held 0.5 s",
            "1.500 swipe#2(fingers=2) failed: rival hold#1 began",
        ])
    }

    @Test func aTapWaitingForADoubleTapSaysSoAndIsReleased() throws {
        let double = try TapGestureRecognizer(taps: 2)
        let single = try TapGestureRecognizer()
        single.require(toFail: double)
        let (input, explained) = watched(double, single)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.05, (1, .up, 100, 100)))
        input.advance(to: 1)
        #expect(explained.lines == [
            "0.050 tap#2 waiting: waiting for rival tap#1",
            "0.350 tap#1(taps=2) failed: timed out: tap 2 of 2 did not start within 0.3 s",
            "0.350 tap#2 recognized: rival tap#1 failed: released",
        ])
        #expect(explained.reports[0].reason == "waitingForRival")
        #expect(explained.reports[0].rival == "tap#1")
    }

    @Test func aTouchTurnedAwayByDevicesOrAppsIsIgnoredWithTheReason() throws {
        let pad = try SwipeGestureRecognizer(fingers: 1)
        pad.devices = ["touchpad"]
        let firefox = try SwipeGestureRecognizer(fingers: 1)
        firefox.apps = AppFilter(["firefox"])
        let input = PointerDispatcher()
        input.add(pad)
        input.add(firefox)
        input.focus.set(AppInfo(id: "kitty"))
        let explained = Explained()
        input.recognizerObserver = explained
        let screen = PointerDevice(name: "ELAN Touchscreen", kind: "touchscreen")
        // Two fingers at once: one line for the touch, not one per finger.
        input.dispatch(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 10, y: 10, device: screen),
                                            PointerEvent(t: 0, id: 2, phase: .down, x: 20, y: 10, device: screen)]))
        input.dispatch(Frame(t: 0.1, events: [PointerEvent(t: 0.1, id: 1, phase: .up, x: 10, y: 10, device: screen),
                                              PointerEvent(t: 0.1, id: 2, phase: .up, x: 20, y: 10, device: screen)]))
        #expect(explained.lines == [
            #"0.000 swipe#1(fingers=1, devices=touchpad) ignored: device touchscreen "ELAN Touchscreen" filtered by devices=touchpad"#,
            "0.000 swipe#2(fingers=1) ignored: app kitty not matching apps=firefox",
        ])
        #expect(explained.reports.map(\.reason) == ["deviceFiltered", "appNotMatching"])
    }

    @Test func changedIsToldOnceAndDisablingSaysSo() throws {
        let drag = try TranslationGestureRecognizer()
        let (input, explained) = watched(drag)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.1, (1, .move, 110, 100)))
        input.dispatch(frame(0.2, (1, .move, 120, 100)))
        input.dispatch(frame(0.3, (1, .move, 130, 100)))
        drag.isEnabled = false
        #expect(explained.lines == [
            "0.100 translation#1 began: past the threshold 10 > 5 units",
            "0.200 translation#1 changed",
            "0.300 translation#1 cancelled: disabled",
        ])
    }

    @Test func withoutAnObserverNothingIsToldAndTheGestureIsTheSame() throws {
        let observed = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let plain = try HoldGestureRecognizer(fingers: 1, maxMovement: 10)
        let observedLog = GestureLog(observed)
        let plainLog = GestureLog(plain)
        let (input, explained) = watched(observed)
        let other = PointerDispatcher()
        other.add(plain)
        for f in [frame(0, (1, .down, 100, 100)), frame(0.6, (1, .move, 100, 120)), frame(0.7, (1, .up, 100, 120))] {
            input.dispatch(f)
            other.dispatch(f)
        }
        #expect(plain.observer == nil)
        #expect(observedLog.values == plainLog.values)
        #expect(explained.lines == ["0.500 hold#1(fingers=1) began: held 0.5 s", "0.600 hold#1(fingers=1) changed",
                                    "0.700 hold#1(fingers=1) ended: lifted"])
        input.recognizerObserver = nil
        #expect(observed.observer == nil)
    }

    @Test func numbersReadAsWritten() {
        #expect(RecognizerReason.number(14.200000000000003) == "14.2")
        #expect(RecognizerReason.number(10) == "10")
        #expect(RecognizerReason.number(Double.pi / 36) == "0.0873")
        #expect(RecognizerReason.number(0.3) == "0.3")
        #expect(RecognizerReason.number(1.25) == "1.25")
        #expect(RecognizerReport.time(12.3456) == "12.346")
        #expect(RecognizerReport.time(0.05) == "0.050")
    }
}
