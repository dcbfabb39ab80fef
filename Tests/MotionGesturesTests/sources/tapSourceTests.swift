import Testing
import MotionStreams
@testable import MotionGestures

@Suite struct TapSourceTests {
    @Test func emitsActiveLocationAtRestOnEachRecognition() throws {
        let element = Element(x: 100, y: 100, width: 100, height: 100)
        let tap = try TapGestureRecognizer(element: element)
        let recorder = Recorder(tapSource(tap))
        tap.handle(frame(0, (1, .down, 110, 120)))
        tap.handle(frame(0.0625, (1, .up, 110, 120)))
        tap.handle(frame(1, (1, .down, 150, 150)))
        tap.handle(frame(1.0625, (1, .up, 150, 150)))
        #expect(recorder.events.count == 6)
        #expect(recorder.states == [.active, .atRest, .active, .atRest])
        // Location in the recognizer's element, as the seed reads it in the gesture's view.
        #expect(recorder.values == [Point(x: 10, y: 20), Point(x: 50, y: 50)])
        if case .state(.active) = recorder.events[0], case .next = recorder.events[1],
           case .state(.atRest) = recorder.events[2] {} else { Issue.record("order: \(recorder.events)") }
    }

    @Test func propagatesTheCurrentStateAtSubscription() throws {
        let tap = try TapGestureRecognizer()
        #expect(Recorder(tapSource(tap)).events.isEmpty)  // not recognized: nothing
        tap.handle(frame(0, (1, .down, 10, 10)))
        tap.handle(frame(0.0625, (1, .up, 10, 10)))
        let late = Recorder(tapSource(tap, in: .screen))
        #expect(late.states == [.active, .atRest])
        #expect(late.values == [Point(x: 10, y: 10)])
    }

    @Test func failedTapsEmitNothing() throws {
        let tap = try TapGestureRecognizer()
        let recorder = Recorder(tapSource(tap))
        tap.handle(frame(0, (1, .down, 10, 10)))
        tap.handle(frame(0.0625, (1, .move, 50, 10)))
        tap.handle(frame(0.125, (1, .up, 50, 10)))
        #expect(recorder.events.isEmpty)
    }

    @Test func disconnectRemovesTheListener() throws {
        let tap = try TapGestureRecognizer()
        let before = tap.listenerCount
        let recorder = Recorder(tapSource(tap))
        #expect(tap.listenerCount == before + 1)
        recorder.subscription.unsubscribe()
        #expect(tap.listenerCount == before)
        tap.handle(frame(0, (1, .down, 10, 10)))
        tap.handle(frame(0.0625, (1, .up, 10, 10)))
        #expect(recorder.events.isEmpty)
    }
}
