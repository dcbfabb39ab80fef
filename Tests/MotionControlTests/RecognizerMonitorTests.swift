import MotionControl
import MotionDaemon
import MotionGestures
import MotionPluginHost
import MotionScenarios
import XCTest
#if canImport(Glibc)
import Glibc
import MotionJSON
#endif

/// `ctl monitor --recognizers` end to end through a real daemon service: the socket, the plugin
/// host and a plugin's recognizers.
final class RecognizerMonitorTests: XCTestCase {
    var folder = ""

    override func setUp() {
        var template = Array("/tmp/motionscript-monitor-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        mkdir(folder + "/config", 0o700)
    }

    override func tearDown() {
        _ = try? FileManager.default.removeItem(atPath: folder)
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(toFile: folder + "/config/" + name, atomically: true, encoding: .utf8)
    }

    private func exchange(_ server: ControlServer, _ client: RawClient, _ line: String) throws -> JSONValue {
        client.write(line + "\n")
        for _ in 0..<200 {
            server.serve(timeout: 0.01)
            if let line = client.readLineNow() { return try JSONValue.parse(line) }
        }
        // A server that never answers is the failure this suite exists to catch, not a skip.
        throw NoAnswer(request: line)
    }

    struct NoAnswer: Error, CustomStringConvertible {
        let request: String
        var description: String { "the control server did not answer \(request) within 200 serves of 10 ms" }
    }

    private func frame(_ t: Double, _ phase: PointerPhase, _ x: Double, _ y: Double) -> Frame {
        Frame(t: t, events: [PointerEvent(t: t, id: 1, phase: phase, x: x, y: y)])
    }

    func testASubscriberHearsWhyAHoldFailedAndWithoutOneRecognizersHaveNoObserver() throws {
        try write("hold.lua", """
            local hold = motion.hold{fingers = 1, maxMovement = 10}
            motion.gesture(hold):subscribe(function(g) motion.emit("hold", g.state) end)
            """)
        try write("other.lua", "motion.swipe{fingers = 3}\n")
        let router = OutputRouter(.memory)
        let host = PluginHost(folder: try ConfigFolder(folder + "/config"), options: RunOptions(scriptPath: ""), router: router)
        host.loadAll()
        let service = try DaemonService(host: host, socketPath: folder + "/control.sock", grabs: false,
                                        notify: SystemdNotify(socketPath: nil))
        defer { service.close() }
        let server = try XCTUnwrap(service.server)
        func recognizers() -> [GestureRecognizer] { host.plugins.flatMap { $0.runtime?.dispatcher.recognizers ?? [] } }
        XCTAssertEqual(recognizers().count, 2)

        // Output lines only: the recognizers stay without an observer (nothing built per event).
        let lines = try RawClient(path: server.path)
        XCTAssertEqual(try exchange(server, lines, #"{"id":1,"command":"monitor"}"#)["ok"], .bool(true))
        XCTAssertTrue(recognizers().allSatisfy { $0.observer == nil })

        let why = try RawClient(path: server.path)
        XCTAssertEqual(try exchange(server, why, #"{"id":"w","command":"monitor","plugin":"hold","recognizers":true}"#)["ok"],
                       .bool(true))
        XCTAssertTrue(recognizers().allSatisfy { $0.observer != nil })
        host.handle(frame(0.1, .down, 100, 100))
        host.handle(frame(0.2, .move, 100, 114.2))
        router.flush()
        let line = try JSONValue.parse(try XCTUnwrap(why.readLineNow()))
        XCTAssertEqual(line["id"], .string("w"))
        let state = try XCTUnwrap(line["recognizerState"])
        XCTAssertEqual(state["plugin"], .string("hold"))
        XCTAssertEqual(state["recognizer"], .string("hold#1"))
        XCTAssertEqual(state["kind"], .string("hold"))
        XCTAssertEqual(state["options"], .array([.string("fingers=1")]))
        XCTAssertEqual(state["file"]?.stringValue?.hasSuffix("/config/hold.lua"), true)
        XCTAssertEqual(state["line"], .number(1))
        XCTAssertEqual(state["t"], .number(0.2))
        XCTAssertEqual(state["state"], .string("failed"))
        XCTAssertEqual(state["reason"], .string("moved"))
        XCTAssertEqual(try XCTUnwrap(state["value"]?.numberValue), 14.2, accuracy: 1e-9)
        XCTAssertEqual(state["limit"], .number(10))
        XCTAssertEqual(state["unit"], .string("units"))
        XCTAssertEqual(state["text"], .string("moved 14.2 > 10 units"))
        XCTAssertEqual(RecognizerReport(json: state)?.line, "0.200 hold.lua:1 hold#1(fingers=1) failed: moved 14.2 > 10 units")
        // The reason comes before the output line the failure made (a monitor sees it too).
        let output = try JSONValue.parse(try XCTUnwrap(why.readLineNow()))
        XCTAssertEqual(output["line"]?["value"], .string("failed"))
        // The other plugin's swipe (filtered out by `hold`) and the output monitor hear no reasons.
        host.handle(frame(0.3, .up, 100, 114.2))
        router.flush()
        XCTAssertNil(why.readLineNow())
        while let other = lines.readLineNow() { XCTAssertNil(try JSONValue.parse(other)["recognizerState"]) }

        // A reload's new version is observed too.
        _ = try service.controlReload(plugin: "hold")
        XCTAssertTrue(recognizers().allSatisfy { $0.observer != nil })

        // The last recognizer monitor goes: the observers go with it.
        why.close()
        for _ in 0..<50 where host.recognizerObservers != nil { server.serve(timeout: 0.01) }
        XCTAssertNil(host.recognizerObservers)
        XCTAssertTrue(recognizers().allSatisfy { $0.observer == nil })
        lines.close()
    }

    /// What `ctl monitor` prints. A recognizer's line has a "line" of its own (the script line):
    /// it was once taken for an output line and printed from there on (seen in live check 23).
    func testCtlPrintsOutputLinesAsWrittenAndRecognizerLinesReadably() throws {
        let report = RecognizerReport(t: 3.12, plugin: "swipes", recognizer: "swipe#2", kind: "swipe", options: ["fingers=3"],
                                      site: SourceLocation(file: "/c/swipes.lua", line: 7), state: "failed", reason: "tooShort",
                                      value: 12, limit: 20, unit: "units", text: "too short 12 < 20 units")
        let recognizerLine = #"{"id":1,"recognizerState":"# + report.json.jsonText + "}"
        XCTAssertTrue(recognizerLine.contains(#","line":7"#))
        let readable = MonitorLines(id: .number(1), json: false)
        XCTAssertEqual(readable.text(for: recognizerLine), "3.120 swipes.lua:7 swipe#2(fingers=3) failed: too short 12 < 20 units")
        XCTAssertEqual(readable.text(for: #"{"id":1,"line":{"t":2,"plugin":"swipes","action":"keys","keys":"a"}}"#),
                       #"{"t":2,"plugin":"swipes","action":"keys","keys":"a"}"#)
        XCTAssertNil(readable.text(for: #"{"id":1,"log":{"text":"x"}}"#))
        let json = MonitorLines(id: .number(1), json: true)
        let object = try JSONValue.parse(try XCTUnwrap(json.text(for: recognizerLine)))
        XCTAssertEqual(object["reason"], .string("tooShort"))
        XCTAssertEqual(object["line"], .number(7))
        XCTAssertEqual(RecognizerReport(json: object), report)
    }
}
