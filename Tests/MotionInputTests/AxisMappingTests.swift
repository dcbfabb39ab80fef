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

/// The units the command line picks without `--surface` (`auto`): millimetres where the device
/// reports its resolution, raw units where it does not; `raw` and `mm` say so explicitly.
@Suite struct DefaultUnitsTests {
    private func device(resolution: Int32) -> DeviceDescription {
        var d = DeviceDescription()
        d.absinfo = EventFileOptions.ranges(x: -1500...1500, y: -1005...1005, resolution: resolution)
        return d
    }

    @Test func autoGivesMillimetresWhereTheDeviceReportsAResolution() throws {
        let auto = try #require(EventFileOptions.parseSurfaceOption("auto"))
        #expect(auto == .desktopDefault)
        #expect(auto.resolvedSurface(for: device(resolution: 30)) == Surface(width: 100, height: 67))
        #expect(auto.resolvedSurface(for: device(resolution: 0)) == nil)  // raw units, no error
        #expect(auto.mappingProblem(for: device(resolution: 0)) == nil)
    }

    @Test func rawAndMmAreExplicit() throws {
        let raw = try #require(EventFileOptions.parseSurfaceOption("RAW"))
        #expect(raw == EventFileOptions())
        #expect(raw.resolvedSurface(for: device(resolution: 30)) == nil)
        let mm = try #require(EventFileOptions.parseSurfaceOption("mm"))
        #expect(mm.mappingProblem(for: device(resolution: 0)) != nil)
    }
}
