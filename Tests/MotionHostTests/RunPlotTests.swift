import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MotionHost

/// Parses an SVG as XML and counts its elements by `class`.
private final class SVGCensus: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var classes: [String: Int] = [:]
    var attributesByClass: [String: [[String: String]]] = [:]
    var texts: [String] = []
    private var inText = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements[name, default: 0] += 1
        if let cls = attributes["class"] {
            classes[cls, default: 0] += 1
            attributesByClass[cls, default: []].append(attributes)
        }
        inText = name == "text"
        if inText { texts.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inText = false
    }
}

private func census(_ svg: String) throws -> SVGCensus {
    let parser = XMLParser(data: Data(svg.utf8))
    let census = SVGCensus()
    parser.delegate = census
    #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
    return census
}

@Suite struct RunPlotTests {
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

@Suite struct PlotCommandTests {
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
