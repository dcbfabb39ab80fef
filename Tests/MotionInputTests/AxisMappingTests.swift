import Testing
@testable import MotionInput

/// The axis range onto the surface side: the ends land exactly on 0 and the side, whatever the
/// range, so a finger at the edge reads as the edge.
@Suite struct AxisMappingTests {
    @Test(arguments: [(0, 4095, 960.0), (0, 1919, 1920.0), (-3000, 3000, 100.0), (1, 3, 0.1),
                      (Int32.min, Int32.max, 1080.0), (0, 1023, 96.3)])
    func theEndsOfTheRangeMapOntoTheEndsOfTheSide(minimum: Int32, maximum: Int32, side: Double) throws {
        let mapping = try #require(AxisMapping(range: AbsInfo(minimum: minimum, maximum: maximum), length: side))
        #expect(mapping.map(minimum) == 0)
        #expect(mapping.map(maximum) == side)
    }

    @Test func theMiddleOfTheRangeIsTheMiddleOfTheSide() throws {
        let mapping = try #require(AxisMapping(range: AbsInfo(minimum: 0, maximum: 4096), length: 960))
        #expect(mapping.map(2048) == 480)
        #expect(mapping.map(1024) == 240)
    }
}
