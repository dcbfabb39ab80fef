import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MotionStreams
import Testing
import MotionPluginHost
import MotionRun
@testable import MotionPlot
import MotionTestSupport

/// Parses an SVG as XML and counts its elements by `class`.
private final class SVGCensus: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var classes: [String: Int] = [:]
    var attributesByClass: [String: [[String: String]]] = [:]
    var texts: [String] = []
    /// Hover texts (`<title>`), in document order.
    var titles: [String] = []
    /// Every `<text>` element's attributes with its text, in document order.
    var textElements: [(attributes: [String: String], text: String)] = []
    private var inText = false
    private var inTitle = false
    private var textAttributes: [String: String] = [:]

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements[name, default: 0] += 1
        if let cls = attributes["class"] {
            classes[cls, default: 0] += 1
            attributesByClass[cls, default: []].append(attributes)
        }
        inText = name == "text"
        inTitle = name == "title"
        if inText { texts.append(""); textAttributes = attributes }
        if inTitle { titles.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
        if inTitle { titles[titles.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if inText { textElements.append((textAttributes, texts[texts.count - 1])) }
        inText = false
        inTitle = false
    }
}

private func census(_ svg: String) throws -> SVGCensus {
    let parser = XMLParser(data: Data(svg.utf8))
    let census = SVGCensus()
    parser.delegate = census
    #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
    return census
}

@Suite(.timeLimit(.minutes(5))) struct RunPlotTests {
    /// The starter (`init`): a tap at (300,300), then a drag from (100,100) that begins past 5 units.
    private func starterTrace() throws -> RunTrace {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        return try RunTrace.record(RunOptions(scriptPath: folder.appendingPathComponent("drag.lua").path,
                                              eventsPath: folder.appendingPathComponent("drag.events.jsonl").path))
    }

    @Test func theTraceHoldsPointersOutputAndRecognizerStates() throws {
        let trace = try starterTrace()
        #expect(trace.pointerChanges == 8)
        #expect(trace.lineCount == 7)
        #expect(trace.endTime == 0.58)
        // Named after the variables they were assigned to (`local pan = motion.pan{…}`).
        #expect(trace.recognizers.map(\.label) == ["pan", "tap"])
        #expect(trace.recognizers[0].finals.map { "\($0.t) \($0.state.rawValue)" } == ["0.08 failed", "0.58 ended"])
        #expect(trace.recognizers[0].activeBands == [0.532...0.58])
        #expect(trace.recognizers[1].finals.map { "\($0.t) \($0.state.rawValue)" } == ["0.08 recognized", "0.516 failed"])  // moved past 3 mm (the default since issue 22)
    }

    @Test func theSVGIsWellFormedWithOneMarkPerThingItShows() throws {
        let c = try census(RunPlot.svg(try starterTrace()))
        #expect(c.elements["svg"] == 1)
        #expect(c.classes["pointer-path"] == 2)      // pointers 1 and 2
        #expect(c.classes["pointer-down"] == 2)
        #expect(c.classes["pointer-up"] == 2)
        #expect(c.classes["pointer-bar"] == 2)
        #expect(c.classes["recognizer"] == 2)        // pan, tap
        #expect(c.classes["state-failed"] == 2)      // the pan at the tap's lift, the tap when the drag moved
        #expect(c.classes["state-recognized"] == 1)
        #expect(c.classes["state-ended"] == 1)
        #expect(c.classes["active-band"] == 1)       // the pan from 0.532 to 0.58
        #expect(c.classes["emitted"] == 2)           // "box" and "tap"
        #expect(c.classes["emitted-path"] == 2)
        #expect(c.classes["value-line"] == 4)        // x and y of each
        #expect(c.classes["state-band"] == 1)        // the tap's instant of activity
        let ticks = c.texts
        #expect(c.attributesByClass["time-tick"]?.count == 6)
        #expect(ticks.contains("input time (s)"))
        #expect(ticks.contains("\"box\"") && ticks.contains("\"tap\"") && ticks.contains("pan"))
        #expect(ticks.contains("motionscript plot — drag.lua"))
    }

    @Test func theSurfaceKeepsItsAspectRatio() throws {
        let c = try census(RunPlot.svg(try starterTrace()))
        let downs = try #require(c.attributesByClass["pointer-down"])
        let p1 = (Double(downs[0]["cx"]!)!, Double(downs[0]["cy"]!)!)  // (300,300)
        let p2 = (Double(downs[1]["cx"]!)!, Double(downs[1]["cy"]!)!)  // (100,100)
        #expect(p1 == (714.29, 439.07))
        #expect(p2 == (404.16, 128.93))
        // 200 input units are the same length across and down.
        #expect(abs((p1.0 - p2.0) - (p1.1 - p2.1)) < 0.02)
    }

    @Test func namesAndValuesAreEscapedAndNonFiniteNumbersDrawNothingBroken() throws {
        let folder = makeTemporaryFolder("plot")
        let script = writeFile("""
            motion.pointers():map(function(p) return p.x end):emit("<&\\"odd'>")
            motion.pointers():map(function(p) return 0/0 end):emit("nan")
            motion.pointers():map(function(p) return "a<b" end):emit("text")
            """, "odd.lua", in: folder)
        let events = writeFile("""
            {"t":0,"id":1,"phase":"down","x":0,"y":0}
            {"t":0.5,"id":1,"phase":"up","x":10,"y":0}

            """, "odd.events.jsonl", in: folder)
        let svg = RunPlot.svg(try RunTrace.record(RunOptions(scriptPath: script, eventsPath: events)))
        let c = try census(svg)
        #expect(c.texts.contains("\"<&\"odd'>\""))
        #expect(c.texts.contains("a<b"))  // the marker label: the string itself
        #expect(!svg.contains("nan\"") && !svg.contains("inf\""))
        #expect(c.classes["emitted"] == 3)
        #expect(c.classes["value-marker"] == 2)  // the two strings
    }

    @Test func manyPointersAreCountedInTheLegendAndGestureMarkersShowTheirState() throws {
        let folder = makeTemporaryFolder("plot")
        let script = writeFile("motion.gesture(motion.tap{}):emit('tap')\n", "taps.lua", in: folder)
        var lines = ""
        for id in 1...8 {
            let t = Double(id)
            lines += #"{"t":\#(t),"id":\#(id),"phase":"down","x":\#(id * 10),"y":5}"# + "\n"
            lines += #"{"t":\#(t + 0.05),"id":\#(id),"phase":"up","x":\#(id * 10),"y":5}"# + "\n"
        }
        let events = writeFile(lines, "taps.events.jsonl", in: folder)
        let c = try census(RunPlot.svg(try RunTrace.record(RunOptions(scriptPath: script, eventsPath: events))))
        #expect(c.classes["pointer-path"] == 8)
        #expect(c.texts.filter { $0.hasPrefix("pointer ") }.count == 6)
        #expect(c.texts.contains("+2 more"))
        #expect(c.classes["value-marker"] == 9)  // the snapshot at subscription ("possible"), then 8 recognitions
        #expect(c.texts.filter { $0 == "recognized" }.count == 8)
    }

    @Test func niceTicksAndNumbers() {
        #expect(PlotScale(domain: 0, 0.5916, range: 0, 100).ticks(10) == [0, 0.1, 0.2, 0.3, 0.4, 0.5])
        #expect(PlotScale(domain: 83.9, 317.1, range: 0, 100).ticks(5) == [100, 150, 200, 250, 300])
        #expect(PlotScale(domain: 5, 5, range: 0, 100).domain == 4.5...5.5)
        #expect(plotNumber(1.5707963) == "1.571")
        #expect(plotNumber(0.30000000000000004) == "0.3")
        #expect(plotNumber(215) == "215")
    }
}

@Suite(.timeLimit(.minutes(5))) struct PlotCommandTests {
    @Test func plotWritesTheSVGAndLeavesStdoutEmpty() throws {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        let r = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "")
        #expect(r.stderr == "motionscript: wrote drag.svg\n")
        let svg = try String(contentsOf: folder.appendingPathComponent("drag.svg"), encoding: .utf8)
        #expect(try census(svg).classes["recognizer"] == 2)
    }

    @Test func runWithPlotPrintsTheOutputAndDrawsIt() throws {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        let r = try runMotionscript(["run", "drag.lua", "--events", "drag.events.jsonl", "--plot", "out.svg"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 7)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.svg").path))
        let noEvents = try runMotionscript(["run", "drag.lua", "--plot", "out.svg"], in: folder)
        #expect(noEvents.status == 2)
        #expect(noEvents.stderr.contains("--plot needs --events"))
    }

    /// `--plot` adds a picture and changes nothing on stdout: action lines stay action lines
    /// (they came out as `{"name":"action","value":{…}}` with `--plot`).
    @Test func runWithPlotPrintsExactlyWhatRunPrints() throws {
        let folder = makeTemporaryFolder("plot")
        let script = repositoryRoot.appendingPathComponent("examples/scenarios/desktop.lua").path
        let events = repositoryRoot.appendingPathComponent("examples/scenarios/desktop.events.jsonl").path
        let plain = try runMotionscript(["run", script, "--events", events], in: folder)
        let plotted = try runMotionscript(["run", script, "--events", events, "--plot", "out.svg"], in: folder)
        #expect(plain.status == 0 && plotted.status == 0, "\(plotted.stderr)")
        #expect(plain.stdout.contains(#","action":"keys","keys":"ctrl+alt+Right"}"#))
        #expect(plotted.stdout == plain.stdout)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.svg").path))
    }

    /// `run --plot --sandbox` ran the script with the full library (`os.execute` worked).
    @Test func runWithPlotRunsTheScriptAsRunDoesSandboxIncluded() throws {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        writeFile("motion.emit('exec', (pcall(os.execute, 'true')))\n", "sb.lua", in: folder)
        let plain = try runMotionscript(["run", "sb.lua", "--events", "drag.events.jsonl", "--sandbox"], in: folder)
        let plotted = try runMotionscript(["run", "sb.lua", "--events", "drag.events.jsonl", "--sandbox", "--plot", "sb.svg"], in: folder)
        #expect(plain.stdout == #"{"t":0,"name":"exec","value":false}"# + "\n")
        #expect(plotted.stdout == plain.stdout)
    }

    /// `run --plot --app NAME` decides `apps =` against NAME as `run --app NAME` does (the plot
    /// path once never fixed the application, so a per-application tap recognized nothing).
    @Test func runWithPlotHonoursApp() throws {
        let folder = makeTemporaryFolder("plot")
        writeFile(#"motion.tap{apps = "Alpha"}:on("recognized", function() motion.emit("tapped", 1) end)"# + "\n", "app.lua", in: folder)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":10,"y":10}"# + "\n" + #"{"t":0.1,"id":1,"phase":"up","x":10,"y":10}"# + "\n"
                  + #"{"t":1,"id":2,"phase":"down","x":10,"y":10}"# + "\n", "tap.jsonl", in: folder)
        let plain = try runMotionscript(["run", "app.lua", "--events", "tap.jsonl", "--app", "Alpha"], in: folder)
        let plotted = try runMotionscript(["run", "app.lua", "--events", "tap.jsonl", "--app", "Alpha", "--plot", "app.svg"], in: folder)
        let other = try runMotionscript(["run", "app.lua", "--events", "tap.jsonl", "--app", "Beta", "--plot", "other.svg"], in: folder)
        #expect(plain.status == 0 && plotted.status == 0 && other.status == 0, "\(plotted.stderr)")
        #expect(plain.stdout.contains(#""name":"tapped","value":1"#), "\(plain.stdout)")
        #expect(plotted.stdout == plain.stdout)
        #expect(other.stdout == "")
    }

    @Test func aScriptErrorExits1AndWritesNoPicture() throws {
        let folder = makeTemporaryFolder("plot")
        writeFile("error('boom')\n", "bad.lua", in: folder)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "e.jsonl", in: folder)
        let r = try runMotionscript(["plot", "bad.lua", "--events", "e.jsonl"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: "))
        #expect(r.stderr.contains("bad.lua:1: boom"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.svg").path))
    }
}

/// Plots of any input: extreme and non-finite values never trap, long runs give bounded
/// pictures.
@Suite(.timeLimit(.minutes(5))) struct PlotRobustnessTests {
    /// Every number in the SVG's attributes, parsed.
    private func attributeNumbers(_ c: SVGCensus) -> [Double] {
        c.attributesByClass.values.flatMap { $0 }.flatMap { attributes in
            attributes.filter { ["x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "width", "height"].contains($0.key) }
                .compactMap { Double($0.value) }
        }
    }

    /// ±1e308 are finite, valid coordinates: their extent overflowed to infinity and converting
    /// it to Int trapped (SIGILL), and `run --plot` lost the lines it had made.
    @Test func coordinatesOfPlusMinus1e308NeverTrapAndRunKeepsItsOutput() throws {
        let folder = makeTemporaryFolder("plot")
        writeFile("""
            motion.pointers():emit("p")
            motion.pointers():map(function(p) return p.x end):emit("x")
            motion.pointers():map(function(p) return {x = -p.x, y = p.y} end):emit("point")
            motion.pointers():map(function(p) return ({1/0, -1/0, 0/0})[p.id] end):emit("odd")
            """, "big.lua", in: folder)
        writeFile("""
            {"t":0,"id":1,"phase":"down","x":-1e308,"y":0}
            {"t":0.1,"id":2,"phase":"down","x":1e308,"y":1e308}
            {"t":0.2,"id":3,"phase":"down","x":1.7976931348623157e308,"y":-1.7976931348623157e308}
            {"t":0.3,"id":1,"phase":"up","x":5e-324,"y":-1e308}

            """, "big.events.jsonl", in: folder)
        let r = try runMotionscript(["run", "big.lua", "--events", "big.events.jsonl", "--plot", "big.svg"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 24)  // 4 streams × (4 changes + 2 cancels at the end)
        let svg = try String(contentsOf: folder.appendingPathComponent("big.svg"), encoding: .utf8)
        let c = try census(svg)
        #expect(c.classes["pointer-path"] == 3)
        #expect(c.classes["emitted"] == 4)
        let numbers = attributeNumbers(c)
        #expect(numbers.count > 50)
        #expect(numbers.allSatisfy { $0.isFinite && abs($0) <= 1e6 })
        #expect(!svg.contains("nan") && !svg.contains("inf"))
    }

    /// Found by the plot fuzz target: every point at (1e308, 1e308) left the surface no extent
    /// (padding by 0.8 changes nothing there), and 0 × ∞ pixels trapped converting to Int.
    @Test(arguments: [[Point(x: 1e308, y: 1e308)],
                      [Point(x: .greatestFiniteMagnitude, y: .greatestFiniteMagnitude)],
                      [Point(x: -.greatestFiniteMagnitude, y: 5e-324), Point(x: -.greatestFiniteMagnitude, y: -5e-324)],
                      [Point(x: 1e308, y: -1e308), Point(x: 1e308, y: 1e308)]])
    func aSurfaceOfCoincidentHugeCoordinatesDrawsWithoutTrapping(points: [Point]) throws {
        var trace = RunTrace(scriptPath: "s.lua", eventsPath: "e.jsonl", window: -Double.infinity...Double.infinity)
        trace.strokes = [RunTrace.Stroke(id: 1, points: points, startsDown: true, endsUp: true)]
        trace.series = [RunTrace.Series(name: "p", values: points.map { RunTrace.Line(t: 0, sample: .point($0)) },
                                        count: points.count, activeBands: [])]
        let c = try census(RunPlot.svg(trace))
        #expect(c.classes["pointer-path"] == 1 && c.classes["emitted-path"] == 1)
        let surface = try #require(c.attributesByClass["surface"]?.first)
        #expect(Double(surface["width"]!)! > 0 && Double(surface["height"]!)! > 0)
        #expect(attributeNumbers(c).allSatisfy { $0.isFinite && abs($0) <= 1e6 })
    }

    @Test func thinnedSamplesStayBoundedAndEvenlySpread() {
        var samples = ThinnedSamples<Int>(capacity: 1000)
        for i in 0..<1_000_000 { samples.append(i) }
        #expect(samples.count == 1_000_000)
        #expect(samples.kept.count == 977)                       // every 1024th
        #expect(samples.kept.prefix(3) == [0, 1024, 2048])
        var bands = ThinnedBands(capacity: 100)
        for i in 0..<10_000 { bands.open(at: Double(i)); bands.close(at: Double(i) + 0.5) }
        #expect(bands.bands.count <= 100 && bands.bands.count >= 50)
        #expect(bands.bands.first?.lowerBound == 0 && bands.bands.last?.upperBound == 9_999.5)
        // A NaN time opens or closes nothing (a range cannot hold it: it trapped).
        bands.open(at: .nan)
        #expect(bands.openSince == nil)
        bands.open(at: 20_000)
        bands.close(at: .nan)
        bands.close(at: 20_001)
        #expect(bands.bands.last == 20_000...20_001)
    }

    @Test func scalesAndTicksOfAnyFiniteDomainStayFinite() {
        for (lo, hi) in [(-1e308, 1e308), (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude),
                         (1e308, 1e308), (5e-324, 5e-324), (0, 5e-324), (-1e308, -1e308), (1e300, 1e308)] {
            let scale = PlotScale(domain: lo, hi, range: 0, 100)
            #expect(scale(lo).isFinite && scale(hi).isFinite, "\(lo) \(hi)")
            #expect(abs(scale(lo) - 0) < 1 && abs(scale(hi) - 100) < 1 || hi / 2 - lo / 2 < 1e-9, "\(lo) \(hi)")
            let ticks = scale.ticks(6)
            #expect(!ticks.isEmpty && ticks.count <= 50 && ticks.allSatisfy(\.isFinite), "\(lo) \(hi)")
        }
        #expect(n(1e300) == "1000000" && n(-.greatestFiniteMagnitude) == "-1000000" && n(.nan) == "0")
    }

    /// 2000 frames × 100 values (200,000) plus 10,000 actions: one circle per value made a
    /// 20 MB SVG (1,000,000 values: 100 MB, 550 MB of RSS). Thinned while the run goes, the
    /// trace holds at most 2048 samples a series, and the SVG stays under 500 KB.
    @Test func twoHundredThousandValuesGiveABoundedPicture() throws {
        let folder = makeTemporaryFolder("plot")
        let script = writeFile("""
            motion.pointers():subscribe(function(p) for i = 1, 100 do motion.emit("v", math.sin(i + p.x)) end end)
            motion.pointers():subscribe(function(p) for i = 1, 5 do motion.keys("ctrl+alt+Right") end end)
            motion.pointers():emit("p")
            """, "many.lua", in: folder)
        var lines = #"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n"
        for i in 1..<2000 { lines += #"{"t":\#(Double(i) / 100),"id":1,"phase":"move","x":\#(i % 300),"y":\#(i * 7 % 200)}"# + "\n" }
        lines += #"{"t":20,"id":1,"phase":"up","x":0,"y":0}"# + "\n"
        let events = writeFile(lines, "many.events.jsonl", in: folder)
        let trace = try RunTrace.record(RunOptions(scriptPath: script, eventsPath: events))
        #expect(trace.lineCount == 2001 * 100 + 2001 * 5 + 2001)
        let v = try #require(trace.series.first { $0.name == "v" })
        #expect(v.count == 200_100)
        #expect(v.values.count <= RunTrace.samplesPerSeries && v.values.count >= RunTrace.samplesPerSeries / 2)
        #expect(trace.actionCount == 10_005 && trace.actions.count <= RunTrace.markers)
        #expect(trace.strokes.count == 1 && trace.strokes[0].points.count <= RunTrace.pointsPerStroke)
        let svg = RunPlot.svg(trace)
        #expect(svg.utf8.count < 500_000, "\(svg.utf8.count) bytes")
        let c = try census(svg)
        #expect((c.elements["circle"] ?? 0) < 3000)
        #expect((c.classes["action-marker"] ?? 0) <= 820)
    }
}

/// Plots people can read: names, labels that never overlap, a window, colours that mean one thing.
@Suite(.timeLimit(.minutes(5))) struct ReadablePlotTests {
    @Test func recognizersAreNamedAfterTheVariablesTheyWereAssignedTo() throws {
        let folder = makeTemporaryFolder("plot")
        let script = writeFile("""
            swipeLeft = motion.swipe{direction = "left", fingers = 3}
            local pinch = motion.scale{}
            local gestures = {}
            gestures.tap2 = motion.tap{fingers = 2}
            local function makeHold(n)
              return motion.hold{fingers = n}
            end
            local hold3 = makeHold(3)
            motion.gesture(motion.pan{}):emit("pan")
            if hold3 == pinch then print(1) end
            """, "names.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "e.jsonl", in: folder)
        let trace = try RunTrace.record(RunOptions(scriptPath: script, eventsPath: events))
        #expect(trace.recognizers.map(\.label) == ["swipeLeft", "pinch", "gestures.tap2", "hold3", "translation 1"])
        #expect(RecognizerNames.assignedName(in: "  local a, b = motion.tap{}") == nil)
        #expect(RecognizerNames.assignedName(in: "x == motion.tap{}") == nil)
        #expect(RecognizerNames.assignedName(in: "\tlocal  my_tap2 =motion.tap{}") == "my_tap2")
    }

    /// Action lines were drawn as raw JSON at every marker, overlapping into a smear: labels
    /// now sit in staggered rows, never overlapping, each marker's whole line on hover.
    @Test func actionLabelsNeverOverlapAndEachMarkerHasItsLineOnHover() throws {
        let folder = makeTemporaryFolder("plot")
        let script = writeFile("""
            local n = 0
            motion.pointers():subscribe(function(p)
              n = n + 1
              motion.keys(n % 2 == 0 and "ctrl+alt+Right" or "super+shift+pagedown")
              if n % 3 == 0 then motion.exec{"notify-send", "a rather long message " .. n} end
            end)
            """, "actions.lua", in: folder)
        var lines = #"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n"
        for i in 1..<60 { lines += #"{"t":\#(Double(i) * 0.05),"id":1,"phase":"move","x":\#(i),"y":0}"# + "\n" }
        let events = writeFile(lines, "e.jsonl", in: folder)
        let trace = try RunTrace.record(RunOptions(scriptPath: script, eventsPath: events))
        #expect(trace.actionCount == 81)  // 61 keys (60 changes and the cancel at the end), 20 execs
        let c = try census(RunPlot.svg(trace))
        // One marker per instant (60: the cancel at the end shares the last move's); an exec at the
        // same time as a key shares its marker and hover text.
        #expect(c.classes["action-marker"] == 60)
        #expect(c.titles.filter { $0.hasPrefix(#"{"action":"keys","keys":"#) }.count == 60)
        #expect(c.titles.contains(#"{"action":"keys","keys":"super+shift+pagedown"}"# + "\n"
                                  + #"{"action":"exec","argv":["notify-send","a rather long message 3"]}"#))
        let labels = c.textElements.filter { $0.attributes["class"] == "marker-label" }
        #expect(labels.count >= 10)
        #expect(labels.contains { $0.text == "keys super+shift+pagedown" })
        // No two labels of a row overlap (widths as estimated, which err on the wide side).
        var extents: [String: [(Double, Double)]] = [:]
        for label in labels {
            let x = Double(label.attributes["x"]!)!, w = LabelLayout.width(of: label.text)
            let start = label.attributes["text-anchor"] == "end" ? x - w : x
            extents[label.attributes["y"]!, default: []].append((start, start + w))
        }
        #expect(extents.count == 3)
        for row in extents.values {
            let sorted = row.sorted { $0.0 < $1.0 }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.1 <= b.0, "\(a) overlaps \(b)") }
        }
    }

    @Test func aWindowPlotsOnlyItsStretchOfInputTime() throws {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        let options = RunOptions(scriptPath: folder.appendingPathComponent("drag.lua").path,
                                 eventsPath: folder.appendingPathComponent("drag.events.jsonl").path)
        let all = try RunTrace.record(options)
        let window = try RunTrace.record(options, window: 0.5...0.56)
        #expect(all.pointerChanges == 8 && window.pointerChanges == 4)  // 0.5 … 0.548
        #expect(window.lineCount == 2)                                   // "box" at 0.532 and 0.548
        #expect(window.startTime == 0.5 && window.endTime == 0.548)
        // The pan began at 0.532 and was still active at the window's end; pointer 2 still down.
        #expect(window.recognizers[0].activeBands == [0.532...0.56])
        #expect(window.recognizers[0].finals.isEmpty)
        #expect(window.pointerBars[2] == [0.5...0.56])
        #expect(window.strokes.map(\.points.count) == [4] && window.strokes[0].startsDown && !window.strokes[0].endsUp)
        let c = try census(RunPlot.svg(window))
        #expect(c.texts.contains { $0.contains("window 0.5 – 0.56 s") })
        let ticks = c.textElements.filter { $0.attributes["class"] == "time-tick" }.map(\.text)
        #expect(ticks.first == "0.5" && ticks.last == "0.56")
    }

    /// `plot` refused `--surface mm` and `--axes`, which `run --plot` took; `--from`/`--to` pick
    /// a window and are checked.
    @Test func plotTakesRunsInputOptionsAndAWindow() throws {
        let folder = makeTemporaryFolder("plot")
        _ = try Starter.write(into: folder.path)
        let r = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl", "--surface", "mm",
                                     "--axes", "0:4095,0:4095", "--from", "0.5", "--to", "0.6"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOf: folder.appendingPathComponent("drag.svg"), encoding: .utf8)
        #expect(svg.contains("window 0.5 – 0.6 s"))
        let bad = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl", "--from", "2", "--to", "1"], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--to (1) must be after --from (2)"))
        let badSurface = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl", "--surface", "big"], in: folder)
        #expect(badSurface.status == 2 && badSurface.stderr.contains("--surface must be WIDTHxHEIGHT"))
    }

    /// The state legend's colours (active, recognized, failed, cancelled) were also pointer 1's,
    /// pointer 2's … and emitted names' colours: a blue path read as "active".
    @Test func lanesKeepTheLegendsColoursToThemselves() throws {
        let script = repositoryRoot.appendingPathComponent("examples/desktop.lua").path
        let events = repositoryRoot.appendingPathComponent("examples/scenarios/desktop.events.jsonl").path
        let folder = makeTemporaryFolder("plot")
        let extra = writeFile("dofile('\(script)')\nmotion.pointers():map(function(p) return p.x end):emit('x')\n"
                              + "motion.pointers():emit('p')\n", "extra.lua", in: folder)
        let c = try census(RunPlot.svg(try RunTrace.record(RunOptions(scriptPath: extra, eventsPath: events))))
        let stateColours: Set = [RunPlot.activeColor, RunPlot.recognizedColor, RunPlot.failedColor, RunPlot.cancelledColor,
                                 RunPlot.possibleColor]
        var laneColours: Set<String> = []
        for cls in ["pointer-path", "pointer-bar", "pointer-down", "value-line", "emitted-path"] {
            for attributes in c.attributesByClass[cls] ?? [] {
                for key in ["fill", "stroke"] { if let colour = attributes[key], colour != "none", colour != "#fff" { laneColours.insert(colour) } }
            }
        }
        #expect(laneColours.count >= 3)
        #expect(laneColours.isDisjoint(with: stateColours), "\(laneColours.intersection(stateColours))")
        #expect(c.classes["recognizer"] == 5)
    }
}
