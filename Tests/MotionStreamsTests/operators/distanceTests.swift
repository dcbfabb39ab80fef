import Testing
import MotionStreams
import MotionTestSupport

@Test func distanceFromANumberIsTheAbsoluteDifference() {
    #expect(Recorder(just([10.0, 50, 100]).distance(from: 50)).values == [40, 0, 50])
}

@Test func distanceFromAPointIsEuclidean() {
    let points = [Point(x: 3, y: 4), Point(x: 10, y: 10)]
    #expect(Recorder(just(points).distance(from: .zero)).values == [5, 200.0.squareRoot() ])
}

@Test func distanceFromAStreamReEmitsWhenEitherChanges() {
    let values = Subject<Double>()
    let origin = Subject<Double>()
    let recorder = Recorder(values.stream.distance(from: origin.stream))
    values.send(10)        // no origin yet: nothing
    origin.send(4)         // both known: 6
    values.send(10)
    origin.send(20)        // the origin moved: re-emitted (Material Motion's distance(from:))
    values.send(10)
    #expect(recorder.values == [6, 6, 10, 10])
}

@Test func distanceFromAPropertyUsesItsCurrentValue() {
    let origin = ReactiveProperty(Point(x: 0, y: 0))
    let points = Subject<Point>()
    let recorder = Recorder(points.stream.distance(from: origin))
    points.send(Point(x: 3, y: 4))
    origin.write(Point(x: 3, y: 0))
    points.send(Point(x: 3, y: 4))
    #expect(recorder.values == [5, 4])
}

@Test func distanceStopsFollowingItsLocationOnUnsubscribe() {
    let origin = ReactiveProperty(1.0)
    let recorder = Recorder(just([3.0]).distance(from: origin.stream))
    #expect(recorder.values == [2])
    #expect(origin.observerCount == 1)
    recorder.subscription.unsubscribe()
    #expect(origin.observerCount == 0)
}
