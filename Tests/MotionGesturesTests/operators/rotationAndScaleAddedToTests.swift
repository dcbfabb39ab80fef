import Testing
import MotionStreams
@testable import MotionGestures

@Test func rotationAddedToAddsTheRotationToTheCachedInitialValue() {
    let gesture = Subject<GestureValue>()
    let angle = ReactiveProperty(1.0)
    let recorder = Recorder(gesture.stream.rotation(addedTo: angle))
    gesture.send(gestureValue(.began, rotation: 0.5))
    angle.write(100)
    gesture.send(gestureValue(.changed, rotation: 0.75))
    gesture.send(gestureValue(.ended, rotation: 0.75))
    gesture.send(gestureValue(.changed, rotation: 0.25))
    #expect(recorder.values == [1.5, 1.75, 100.25])
}

@Test func scaleAddedToMultipliesTheCachedInitialValue() {
    let gesture = Subject<GestureValue>()
    let size = ReactiveProperty(2.0)
    let recorder = Recorder(gesture.stream.scale(addedTo: size.stream))
    gesture.send(gestureValue(.began, scale: 1.5))
    size.write(10)
    gesture.send(gestureValue(.changed, scale: 2))
    gesture.send(gestureValue(.cancelled, scale: 2))
    gesture.send(gestureValue(.began, scale: 0.5))
    #expect(recorder.values == [3, 4, 5])
}

@Test func rotatableWritesBackWithoutALoop() throws {
    let rotation = try RotationGestureRecognizer()
    let angle = ReactiveProperty(1.0)
    let subscription = gestureSource(rotation).rotation(addedTo: angle).subscribe(angle)
    defer { subscription.unsubscribe() }
    rotation.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
    rotation.handle(frame(0.016, (2, .move, 0, 100)))
    rotation.handle(frame(0.032, (2, .up, 0, 100)))
    #expect(close(angle.read(), 1 + Double.pi / 2, 1e-12))
}
