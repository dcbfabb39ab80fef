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
