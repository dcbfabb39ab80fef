import Testing
import MotionStreams
@testable import MotionGestures

@Suite struct GestureSourceTests {
    @Test func emitsTheCurrentSnapshotAtSubscription() throws {
        let pan = try TranslationGestureRecognizer()
        let recorder = Recorder(gestureSource(pan))
        #expect(recorder.values.map(\.state) == [.possible])
        #expect(recorder.states == [.atRest])
    }

    @Test func channelOrderIsActiveThenValuesThenAtRest() throws {
        let pan = try TranslationGestureRecognizer()
        pan.handle(frame(0, (1, .down, 0, 0)))
        pan.handle(frame(0.016, (1, .move, 20, 0)))
        let recorder = Recorder(gestureSource(pan))  // subscribed mid-gesture
        pan.handle(frame(0.032, (1, .move, 30, 0)))
        pan.handle(frame(0.048, (1, .up, 30, 0)))
        let trace = recorder.events.map { event -> String in
            switch event {
            case .next(let value): value.state.rawValue
            case .state(let state): "\(state)"
            }
        }
        #expect(trace == ["active", "began", "active", "changed", "ended", "atRest"])
    }

    @Test func everyActiveSnapshotIsPrecededByStateActive() throws {
        let pan = try TranslationGestureRecognizer()
        let recorder = Recorder(gestureSource(pan))
        pan.handle(frame(0, (1, .down, 0, 0)))
        pan.handle(frame(0.016, (1, .move, 20, 0)))
        pan.handle(frame(0.032, (1, .move, 30, 0)))
        pan.handle(frame(0.048, (1, .move, 40, 0)))
        pan.handle(frame(0.064, (1, .up, 40, 0)))
        let trace = recorder.events.map { event -> String in
            switch event {
            case .next(let value): value.state.rawValue
            case .state(let state): "\(state)"
            }
        }
        #expect(trace == ["possible", "atRest",
                          "active", "began", "active", "changed", "active", "changed",
                          "ended", "atRest"])
    }

    @Test func disconnectRemovesTheListener() throws {
        let rotation = try RotationGestureRecognizer()
        let recorder = Recorder(gestureSource(rotation))
        #expect(rotation.listenerCount == 1)
        recorder.subscription.unsubscribe()
        #expect(rotation.listenerCount == 0)
    }
}
