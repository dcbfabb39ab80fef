import Testing
import MotionStreams
import MotionTestSupport

@Test func normalizedByDividesEachValue() {
    #expect(Recorder(just([50.0, 100]).normalized(by: 100)).values == [0.5, 1])
    #expect(Recorder(just([Point(x: 50, y: 100)]).normalized(by: Point(x: 100, y: 400))).values
            == [Point(x: 0.5, y: 0.25)])
}

@Test func offsetByAddsToEachValue() {
    #expect(Recorder(just([10.0, -10]).offset(by: 5)).values == [15, -5])
    #expect(Recorder(just([Point(x: 1, y: 2)]).offset(by: Point(x: 10, y: 20))).values == [Point(x: 11, y: 22)])
}

@Test func scaledByMultipliesEachValue() {
    #expect(Recorder(just([10.0, -2]).scaled(by: 3)).values == [30, -6])
    #expect(Recorder(just([Point(x: 1, y: 2)]).scaled(by: 2)).values == [Point(x: 2, y: 4)])
}

@Test func xLockedToReplacesX() {
    #expect(Recorder(just([Point(x: 1, y: 2)]).xLocked(to: 50)).values == [Point(x: 50, y: 2)])
}

@Test func yLockedToReplacesY() {
    #expect(Recorder(just([Point(x: 1, y: 2)]).yLocked(to: 50)).values == [Point(x: 1, y: 50)])
}

@Test func xAndYEmitComponents() {
    #expect(Recorder(just([Point(x: 1, y: 2)]).x()).values == [1])
    #expect(Recorder(just([Point(x: 1, y: 2)]).y()).values == [2])
}
