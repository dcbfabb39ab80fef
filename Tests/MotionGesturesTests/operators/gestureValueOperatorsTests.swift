import Testing
import MotionStreams
@testable import MotionGestures

private let element = Element(x: 100, y: 100, width: 200, height: 200, rotation: 0, scale: 2)

private func sample() -> GestureValue {
    GestureValue(kind: .translation, state: .changed, centroid: Point(x: 140, y: 120),
                 translation: Point(x: 20, y: -10), velocity: Point(x: 600, y: 0))
}

@Test func whenRecognitionStateIsEmitsOnlyThatState() {
    let gesture = Subject<GestureValue>()
    let recorder = Recorder(gesture.stream.whenRecognitionState(is: .began))
    for state in [GestureState.possible, .began, .changed, .ended] { gesture.send(gestureValue(state)) }
    #expect(recorder.values.map(\.state) == [.began])
}

@Test func whenRecognitionStateIsAnyOfEmitsThoseStates() {
    let gesture = Subject<GestureValue>()
    let recorder = Recorder(gesture.stream.whenRecognitionState(isAnyOf: [.ended, .cancelled]))
    for state in [GestureState.began, .changed, .ended, .cancelled, .failed] { gesture.send(gestureValue(state)) }
    #expect(recorder.values.map(\.state) == [.ended, .cancelled])
}

@Test func centroidInEmitsTheLocationInTheElement() {
    #expect(Recorder(just([sample()]).centroid(in: element)).values == [Point(x: 20, y: 10)])
}

@Test func velocityInEmitsTheVelocityInTheElement() {
    #expect(Recorder(just([sample()]).velocity(in: element)).values == [Point(x: 300, y: 0)])
}

@Test func translationInEmitsTheTranslationInTheElement() {
    #expect(Recorder(just([sample()]).translation(in: element)).values == [Point(x: 10, y: -5)])
}

