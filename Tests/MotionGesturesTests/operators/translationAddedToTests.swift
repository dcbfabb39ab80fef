import Testing
import MotionStreams
@testable import MotionGestures

/// Seed 001, paragraph by paragraph, frame by frame.
@Suite struct TranslationAddedToTests {
    @Test func exposeTranslationAddedToAPI() {
        // Accepts an initial-position stream and an element within which translations are calculated.
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 10, y: 20))
        let element = Element(x: 0, y: 0, width: 100, height: 100, rotation: 0, scale: 2)
        let recorder = Recorder(gesture.stream.translation(addedTo: position.stream, in: element))
        gesture.send(gestureValue(.began, translation: Point(x: 40, y: 0)))
        #expect(recorder.values == [Point(x: 30, y: 20)])
    }

    @Test func cacheTheInitialPositionOnGestureActivation() {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 100, y: 100))
        let recorder = Recorder(gesture.stream.translation(addedTo: position))
        // began samples the position …
        gesture.send(gestureValue(.began, translation: Point(x: 5, y: 0)))
        #expect(recorder.values == [Point(x: 105, y: 100)])
        // … and changed with a cache does not sample again.
        position.write(Point(x: 0, y: 0))
        gesture.send(gestureValue(.changed, translation: Point(x: 10, y: 0)))
        #expect(recorder.values.last == Point(x: 110, y: 100))
    }

    @Test func changedWithAnEmptyCacheSamples() {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 100, y: 100))
        let recorder = Recorder(gesture.stream.translation(addedTo: position))
        // Subscribed mid-gesture: the first value it sees is changed.
        gesture.send(gestureValue(.changed, translation: Point(x: 10, y: 10)))
        #expect(recorder.values == [Point(x: 110, y: 110)])
        position.write(Point(x: 500, y: 500))
        gesture.send(gestureValue(.changed, translation: Point(x: 20, y: 10)))
        #expect(recorder.values.last == Point(x: 120, y: 110))
    }

    @Test(arguments: [GestureState.ended, .cancelled, .failed, .possible])
    func blowAwayTheCacheWhenTheGestureRecognizerIsInactive(state: GestureState) {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 100, y: 100))
        let recorder = Recorder(gesture.stream.translation(addedTo: position))
        gesture.send(gestureValue(.began, translation: Point(x: 5, y: 0)))
        gesture.send(gestureValue(state, translation: Point(x: 7, y: 0)))
        #expect(recorder.values == [Point(x: 105, y: 100)])  // nothing emitted without a cache
        position.write(Point(x: 0, y: 0))
        gesture.send(gestureValue(.changed, translation: Point(x: 1, y: 1)))
        #expect(recorder.values.last == Point(x: 1, y: 1))  // the cache was sampled afresh
    }

    @Test func emitTheTranslationAddedToInitialPosition() {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 100, y: 200))
        let recorder = Recorder(gesture.stream.translation(addedTo: position))
        gesture.send(gestureValue(.possible, translation: Point(x: 3, y: 3)))
        #expect(recorder.values.isEmpty)
        gesture.send(gestureValue(.began, translation: Point(x: 11, y: 0)))
        gesture.send(gestureValue(.changed, translation: Point(x: 20, y: -5)))
        gesture.send(gestureValue(.ended, translation: Point(x: 20, y: -5)))
        #expect(recorder.values == [Point(x: 111, y: 200), Point(x: 120, y: 195)])
    }

    @Test func twoSubscriptionsDoNotShareACache() {
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 100, y: 100))
        let stream = gesture.stream.translation(addedTo: position)
        let first = Recorder(stream)
        gesture.send(gestureValue(.began, translation: Point(x: 5, y: 0)))
        position.write(Point(x: 0, y: 0))
        let second = Recorder(stream)
        gesture.send(gestureValue(.changed, translation: Point(x: 10, y: 0)))
        #expect(first.values == [Point(x: 105, y: 100), Point(x: 110, y: 100)])
        #expect(second.values == [Point(x: 10, y: 0)])
    }

    @Test func subscribingTheResultToTheInitialPositionDragsWithoutALoop() throws {
        let pan = try TranslationGestureRecognizer()
        let position = ReactiveProperty(Point(x: 100, y: 100))
        var writes = 0
        let counting = position.stream.subscribe(next: { _ in writes += 1 })
        let dragging = gestureSource(pan).translation(addedTo: position).subscribe(position)
        defer { counting.unsubscribe(); dragging.unsubscribe() }
        pan.handle(frame(0, (1, .down, 10, 10)))
        pan.handle(frame(0.016, (1, .move, 30, 10)))
        pan.handle(frame(0.032, (1, .move, 40, 20)))
        pan.handle(frame(0.048, (1, .up, 40, 20)))
        #expect(position.read() == Point(x: 130, y: 110))
        #expect(writes == 1 + 2)  // initial, began, changed (ended clears the cache: nothing)
        // A second drag starts from where the first left it.
        pan.handle(frame(1, (1, .down, 0, 0)))
        pan.handle(frame(1.016, (1, .move, 0, -50)))
        #expect(position.read() == Point(x: 130, y: 60))
    }

    @Test func translatedFromIsTheSameOperator() {
        // Seed 000: the older name, with the same cache semantics.
        let gesture = Subject<GestureValue>()
        let position = ReactiveProperty(Point(x: 1, y: 2))
        let recorder = Recorder(gesture.stream.translated(from: position))
        gesture.send(gestureValue(.changed, translation: Point(x: 10, y: 0)))
        position.write(.zero)
        gesture.send(gestureValue(.changed, translation: Point(x: 20, y: 0)))
        gesture.send(gestureValue(.ended, translation: Point(x: 20, y: 0)))
        gesture.send(gestureValue(.began, translation: Point(x: 1, y: 0)))
        #expect(recorder.values == [Point(x: 11, y: 2), Point(x: 21, y: 2), Point(x: 1, y: 0)])
    }
}
