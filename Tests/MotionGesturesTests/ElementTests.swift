import Testing
import Foundation
import MotionStreams
@testable import MotionGestures

@Suite struct ElementTests {
    @Test func aScreenPointMapsToRotatedScaledElementCoordinates() {
        // p → R(−rotation)·(p − origin)/scale: (100, 70) − (100, 50) = (0, 20); R(−π/2)·(0, 20)
        // = (20, 0); / 2 = (10, 0).
        let element = Element(x: 100, y: 50, width: 40, height: 40, rotation: Double.pi / 2, scale: 2)
        #expect(close(element.convert(fromScreen: Point(x: 100, y: 70)), Point(x: 10, y: 0), 1e-12))
        // Vectors map the same way without the origin.
        #expect(close(element.convertVector(fromScreen: Point(x: 0, y: 20)), Point(x: 10, y: 0), 1e-12))
        #expect(close(element.convertVector(fromScreen: Point(x: 20, y: 0)), Point(x: 0, y: -10), 1e-12))
    }

    @Test func containsUsesTheElementsOwnSpace() {
        let element = Element(x: 100, y: 50, width: 40, height: 40, rotation: Double.pi / 2, scale: 2)
        #expect(element.contains(Point(x: 100, y: 70)))   // (10, 0): on the edge
        #expect(!element.contains(Point(x: 120, y: 70)))  // (10, −10)
        #expect(element.contains(Point(x: 60, y: 70)))    // (10, 20)
        #expect(Element.screen.contains(Point(x: -1e9, y: 1e9)))
    }

    @Test func gestureValuesConvertIntoElements() {
        let element = Element(x: 10, y: 10, width: 100, height: 100, rotation: 0, scale: 0.5)
        let value = GestureValue(kind: .translation, centroid: Point(x: 20, y: 30),
                                 translation: Point(x: 5, y: 5), velocity: Point(x: 100, y: 0))
        #expect(value.location(in: element) == Point(x: 20, y: 40))
        #expect(value.translation(in: element) == Point(x: 10, y: 10))
        #expect(value.velocity(in: element) == Point(x: 200, y: 0))
        #expect(value.location() == Point(x: 20, y: 30))
    }
}
