import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionInput
import MotionLua
import MotionTestSupport

/// `--axes`, `--surface WxH|mm`, `motion.screen.width/height`, and scenarios that declare their
/// surface.
@Suite struct SurfaceAxesTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Slot 0 down at (2048, 1024), moves to x 4095, lifts: raw records, no device description.
    var raw: Data {
        var bytes = [UInt8]()
        bytes += inputEvent(sec: 1, usec: 0, 3, 0x2f, 0) + inputEvent(sec: 1, usec: 0, 3, 0x39, 5)
        bytes += inputEvent(sec: 1, usec: 0, 3, 0x35, 2048) + inputEvent(sec: 1, usec: 0, 3, 0x36, 1024) + inputEvent(sec: 1, usec: 0, 0, 0, 0)
        bytes += inputEvent(sec: 1, usec: 100_000, 3, 0x35, 4095) + inputEvent(sec: 1, usec: 100_000, 0, 0, 0)
        bytes += inputEvent(sec: 1, usec: 200_000, 3, 0x39, -1) + inputEvent(sec: 1, usec: 200_000, 0, 0, 0)
        return Data(bytes)
    }

    static let script = """
        motion.emit("screen", {w = motion.screen.width, h = motion.screen.height})
        motion.pointers():filter(function(p) return p.phase == "down" end):emit("p")
        """

    @Test func axesParseAndSayWhatIsWrong() {
        guard case .success(let axes) = EventFileOptions.parseAxes("0:4095,-10:2047") else { Issue.record(); return }
        #expect(axes[ABS.MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 4095))
        #expect(axes[ABS.Y] == AbsInfo(minimum: -10, maximum: 2047))
        #expect(EventFileOptions.parseAxes("0:4095,7:7") == .failure(.init("--axes: the Y range has minimum = maximum (7); it must be wider than one value")))
        #expect(EventFileOptions.parseAxes("10:0,0:5") == .failure(.init("--axes: the X minimum 10 is above its maximum 0")))
        #expect(EventFileOptions.parseAxes("0:a,0:5") == .failure(.init("--axes: the X range '0:a' must be MIN:MAX or MIN:MAX:RES with integers, e.g. 0:4095 or 0:1200:12")))
        #expect(EventFileOptions.parseAxes("0:5") == .failure(.init("--axes must be XMIN:XMAX[:XRES],YMIN:YMAX[:YRES], e.g. 0:4095,0:4095 or 0:1200:12,0:800:12")))
    }

    /// `--axes MIN:MAX:RES`: a resolution in units per millimetre, for a pipe or FIFO that
    /// cannot describe its device; given on both axes, positions are millimetres by default.
    @Test func axesTakeAResolutionThatMakesTheUnitsMillimetres() throws {
        guard case .success(let axes) = EventFileOptions.parseAxes("0:1200:12,-400:400:8") else { Issue.record(); return }
        #expect(axes[ABS.MT_POSITION_X] == AbsInfo(minimum: 0, maximum: 1200, resolution: 12))
        #expect(axes[ABS.Y] == AbsInfo(minimum: -400, maximum: 400, resolution: 8))
        #expect(EventFileOptions.parseAxes("0:1200:0,0:800:12") == .failure(.init("--axes: the X resolution in '0:1200:0' must be a whole number of units per millimetre above 0, e.g. 0:1200:12")))
        #expect(EventFileOptions.parseAxes("0:1200:12:1,0:800") == .failure(.init("--axes: the X range '0:1200:12:1' must be MIN:MAX or MIN:MAX:RES with integers, e.g. 0:4095 or 0:1200:12")))
        // The default (millimetres where known) now knows: 100 x 100 mm.
        var options = EventFileOptions.desktopDefault
        options.axes = axes
        #expect(options.resolvedSurface(for: DeviceDescription()) == Surface(width: 100, height: 100))
        #expect(options.rawUnitsNote(for: DeviceDescription()) == nil)
        // Without resolutions: raw units, which a live device says once.
        options.axes = EventFileOptions.ranges(x: 0...1200, y: 0...800)
        #expect(options.resolvedSurface(for: DeviceDescription()) == nil)
        #expect(options.rawUnitsNote(for: DeviceDescription())?.hasPrefix("positions are in raw device units (no resolution known, so not millimetres): give --axes XMIN:XMAX:XRES,YMIN:YMAX:YRES") == true)
        // The command line takes it: a 12 mm move of the raw records' pad at 12 units/mm.
        let dir = try folder()
        let events = dir.appendingPathComponent("e.raw")
        try raw.write(to: events)
        let script = dir.appendingPathComponent("s.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let r = try runMotionscript(["run", script.path, "--events", events.path, "--axes", "0:4095:12,0:2047:12"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"t":0,"name":"screen","value":{"h":170.58333333333334,"w":341.25}}
            {"t":0,"name":"p","value":{"id":5,"phase":"down","x":170.66666666666666,"y":85.33333333333334}}

            """)
    }

    /// A FIFO-fed pad without resolutions runs in raw units by default: said once on stderr
    /// (a 12 mm threshold would silently be 12 units); with them, nothing to say.
    @Test func aLiveDeviceInRawUnitsIsSaidOnce() throws {
        let dir = try folder()
        let script = dir.appendingPathComponent("s.lua")
        try "motion.pointers():emit('p')".write(to: script, atomically: true, encoding: .utf8)
        for (axes, said) in [("0:4095,0:2047", true), ("0:4095:12,0:2047:12", false)] {
            let fifo = dir.appendingPathComponent("pad-\(said)").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let bytes = raw
            let writer = Thread {
                let fd = open(fifo, O_WRONLY | O_CLOEXEC)
                bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
                close(fd)
            }
            writer.start()
            let r = try runMotionscript(["run", script.path, "--device", fifo, "--axes", axes])
            #expect(r.status == 0, "\(r.stderr)")
            let notes = r.stderr.split(separator: "\n").filter { $0.contains("raw device units") }
            #expect(notes == (said ? ["motionscript: \(fifo): positions are in raw device units (no resolution known, so not millimetres): give --axes XMIN:XMAX:XRES,YMIN:YMAX:YRES with XRES, YRES in units per mm (e.g. 0:1200:12,0:800:12), or --surface raw to say you mean raw units"] : []), "\(r.stderr)")
            #expect(r.stdout.split(separator: "\n").count == 3)
        }
    }

    @Test func rawEventsWithAxesMapOntoTheSurfaceAndTheScreenHasItsSize() throws {
        let dir = try folder()
        let events = dir.appendingPathComponent("e.raw")
        try raw.write(to: events)
        let script = dir.appendingPathComponent("s.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        var options = RunOptions(scriptPath: script.path, eventsPath: events.path)
        options.input = EventFileOptions(surface: Surface(width: 1920, height: 1080),
                                         axes: EventFileOptions.ranges(x: 0...4095, y: 0...2047))
        let output = CollectedOutput()
        try Runner.run(options, output: output)
        #expect(output.lines == [
            #"{"t":0,"name":"screen","value":{"h":1080,"w":1920}}"#,
            #"{"t":0,"name":"p","value":{"id":5,"phase":"down","x":960.2344322344322,"y":540.2638006839277}}"#,
        ])
        // Without --axes the error says how to pass them.
        options.input.axes = [:]
        #expect { try Runner.run(options, output: CollectedOutput()) } throws: { error in
            "\(error)".contains("no range for ABS_MT_POSITION_X/Y (the input does not describe the device; pass --axes XMIN:XMAX,YMIN:YMAX)")
        }
    }

    func evemu(x: String, y: String) -> String {
        """
        # EVEMU 1.3
        N: test pad
        I: 0018 0000 0000 0000
        P: 01 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 00 00 00 00 00 80 60 02
        A: 2f 0 9 0 0 0
        A: 35 \(x)
        A: 36 \(y)
        A: 39 0 65535 0 0 0
        E: 0.000001 0003 002f 0000
        E: 0.000001 0003 0039 0001
        E: 0.000001 0003 0035 0500
        E: 0.000001 0003 0036 0250
        E: 0.000001 0000 0000 0000
        E: 0.100001 0003 0039 -001
        E: 0.100001 0000 0000 0000

        """
    }

    @Test func surfaceMmGivesMillimetresFromTheResolution() throws {
        let dir = try folder()
        let events = dir.appendingPathComponent("pad.evemu")
        try evemu(x: "0 1000 0 0 10", y: "0 500 0 0 5").write(to: events, atomically: true, encoding: .utf8)
        let script = dir.appendingPathComponent("s.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        var options = RunOptions(scriptPath: script.path, eventsPath: events.path)
        options.input = EventFileOptions.parseSurfaceOption("mm")!
        let output = CollectedOutput()
        try Runner.run(options, output: output)
        #expect(output.lines == [
            #"{"t":0,"name":"screen","value":{"h":100,"w":100}}"#,
            #"{"t":0,"name":"p","value":{"id":1,"phase":"down","x":50,"y":50}}"#,
        ])
    }

    @Test func anAxisWithoutResolutionOrWithAnEmptyRangeGetsItsOwnMessage() throws {
        let dir = try folder()
        let script = dir.appendingPathComponent("s.lua")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let cases: [(String, String, String, String)] = [
            ("0 1000 0 0 0", "0 500 0 0 5", "mm", "pad.evemu:13: cannot map onto the surface: the X axis (ABS_MT_POSITION_X) reports no resolution, so --surface mm cannot give millimetres (use --surface WIDTHxHEIGHT)"),
            ("0 1000 0 0 0", "300 300 0 0 0", "100x100", "pad.evemu:13: cannot map onto the surface: the Y axis (ABS_MT_POSITION_Y) has minimum = maximum = 300: an empty range cannot be mapped onto a surface (pass --axes XMIN:XMAX,YMIN:YMAX)"),
        ]
        for (x, y, surface, message) in cases {
            let events = dir.appendingPathComponent("pad.evemu")
            try evemu(x: x, y: y).write(to: events, atomically: true, encoding: .utf8)
            var options = RunOptions(scriptPath: script.path, eventsPath: events.path)
            options.input = EventFileOptions.parseSurfaceOption(surface)!
            #expect { try Runner.run(options, output: CollectedOutput()) } throws: { error in
                "\(error)".hasSuffix(message)
            }
        }
    }

    @Test func aScenarioDeclaresItsSurfaceAndAxes() throws {
        let dir = try folder()
        try raw.write(to: dir.appendingPathComponent("edge.raw"))
        try ("-- A scenario in surface units, whatever device recorded it.\n-- surface: 100x50\n-- axes: 0:4095,0:2047\n" + Self.script)
            .write(to: dir.appendingPathComponent("edge.lua"), atomically: true, encoding: .utf8)
        try """
            {"t":0,"name":"screen","value":{"w":100,"h":50}}
            {"t":0,"name":"p","value":{"id":5,"phase":"down","x":50.01221001221001,"y":25.01221299462628}}

            """.write(to: dir.appendingPathComponent("edge.expected.jsonl"), atomically: true, encoding: .utf8)
        let report = try ScenarioBatch(paths: [dir.path], options: ScenarioOptions(jobs: 1, workerExecutable: motionscriptBinary)).run()
        #expect(report.results.map(\.outcome) == [.passed])
        // A malformed declaration names its line.
        try "-- surface: huge\n".write(to: dir.appendingPathComponent("edge.lua"), atomically: true, encoding: .utf8)
        let bad = try ScenarioBatch(paths: [dir.path], options: ScenarioOptions(jobs: 1, workerExecutable: motionscriptBinary)).run()
        #expect(bad.results.map(\.outcome) == [.error("edge.lua:1: surface must be WIDTHxHEIGHT (e.g. 1920x1080), mm, auto or raw")])
    }
}
