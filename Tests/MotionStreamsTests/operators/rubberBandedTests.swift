import Testing
import MotionStreams
import MotionTestSupport

@Test func rubberBandedPassesValuesInsideTheRange() {
    #expect(Recorder(just([0.0, 50, 100]).rubberBanded(below: 0, above: 100, maxLength: 50)).values == [0, 50, 100])
}

@Test func rubberBandedAppliesTheBandOutsideTheRange() {
    // band(x) = L·(1 − 1/(x·0.55/L + 1)); x = 100, L = 50: 50·(1 − 1/2.1).
    let band = 50 * (1 - 1 / (100 * 0.55 / 50 + 1))
    let values = Recorder(just([200.0, -100]).rubberBanded(below: 0, above: 100, maxLength: 50)).values
    #expect(abs(values[0] - (100 + band)) < 1e-12)
    #expect(abs(values[1] - (0 - band)) < 1e-12)
    #expect(values[0] < 150)
}

@Test func rubberBandedWithoutABandEmitsBelow() {
    #expect(Recorder(just([200.0, -100]).rubberBanded(below: 0, above: 100, maxLength: 0)).values == [0, 0])
}

@Test func rubberBandedPointsBandEachAxis() {
    let stream = just([Point(x: 200, y: 50)]).rubberBanded(below: .zero, above: Point(x: 100, y: 100), maxLength: 50)
    let value = Recorder(stream).values[0]
    #expect(abs(value.x - (100 + 50 * (1 - 1 / 2.1))) < 1e-12)
    #expect(value.y == 50)
}
