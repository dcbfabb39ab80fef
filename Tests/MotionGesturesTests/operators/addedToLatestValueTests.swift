import Testing
import MotionStreams
@testable import MotionGestures

/// `addedTo` given a stream reads its latest value, in Swift as in Lua.
@Suite struct AddedToLatestValueTests {
    @Test func translationAddedToAStreamUsesItsLatestValue() {
        let gesture = Subject<GestureValue>()
        let position = Subject<Point>()  // emits nothing at subscription
        let recorder = Recorder(gesture.stream.translation(addedTo: position.stream))
        position.send(Point(x: 7, y: 8))
        position.send(Point(x: 70, y: 80))
        gesture.send(gestureValue(.began, translation: Point(x: 5, y: 0)))
        #expect(recorder.values == [Point(x: 75, y: 80)])
    }

    @Test func rotationAndScaleAddedToAStreamUseItsLatestValue() {
        let gesture = Subject<GestureValue>()
        let initial = Subject<Double>()
        let rotations = Recorder(gesture.stream.rotation(addedTo: initial.stream))
        let scales = Recorder(gesture.stream.scale(addedTo: initial.stream))
        initial.send(1)
        initial.send(2)
        gesture.send(gestureValue(.began, rotation: 0.5, scale: 3))
        #expect(rotations.values == [2.5])
        #expect(scales.values == [6])
    }

    @Test func theStreamIsFollowedOnlyWhileSubscribed() {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 1, y: 1))
        let translated = gesture.stream.translation(addedTo: position.stream)
        #expect(position.observerCount == 0)
        let recorder = Recorder(translated)
        #expect(position.observerCount == 1)
        recorder.subscription.unsubscribe()
        #expect(position.observerCount == 0)
    }
}
