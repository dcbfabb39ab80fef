import Foundation
import MotionPluginHost
import MotionRun
import MotionInput
import MotionJSON
import MotionLua
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The bundled drag example, checked by hand against seeds 000/001.
@Suite struct DragExampleTests {
    @Test func dragExampleOutputMatchesTheSeedsByHand() throws {
        let output = CollectedOutput()
        try Runner.run(RunOptions(scriptPath: root.appendingPathComponent("examples/drag.lua").path,
                                  eventsPath: root.appendingPathComponent("examples/drag.events.jsonl").path),
                       output: output)
        #expect(output.lines == [
            // The property's value at subscription.
            #"{"t":0,"name":"position","value":{"x":100,"y":200}}"#,
            // (4,3) is 5 from the start: not past the threshold of 5. (12,9) is 15: began, the
            // cache takes (100,200).
            #"{"t":0.032,"name":"position","value":{"x":112,"y":209}}"#,
            #"{"t":0.048,"name":"position","value":{"x":120,"y":215}}"#,
            // Second drag: (-10,0) is past 5 (issue 22's default): it begins from (120,215).
            #"{"t":0.216,"name":"position","value":{"x":110,"y":215}}"#,
            #"{"t":0.232,"name":"position","value":{"x":108,"y":215}}"#,
        ])
    }

    @Test func badEventFileIsAnInputErrorWithFileAndLine() throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).jsonl")
        try #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"#.appending("\n{\"t\":0.1,\"id\":1}\n")
            .write(to: events, atomically: true, encoding: .utf8)
        do {
            try Runner.run(RunOptions(scriptPath: root.appendingPathComponent("examples/drag.lua").path,
                                      eventsPath: events.path), output: CollectedOutput())
            Issue.record("expected an input error")
        } catch let error as InputError {
            #expect(error.description == "\(events.path):2: missing fields \"phase\", \"x\", \"y\"")
        }
    }

    @Test func runTimesOutOnAScriptThatNeverReturns() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("spin-\(UUID().uuidString).lua")
        try "while true do end\n".write(to: script, atomically: true, encoding: .utf8)
        #expect(throws: ScriptError.self) {
            try Runner.run(RunOptions(scriptPath: script.path, timeout: 0.2), output: CollectedOutput())
        }
    }
}

@Suite struct JSONTextTests {
    @Test(arguments: [
        (110.0, "110"), (0.016, "0.016"), (-0.0, "0"), (0.1 + 0.2, "0.30000000000000004"),
        (1e21, "1e+21"), (-2.5, "-2.5"), (Double.nan, "null"), (Double.infinity, "null"), (1e-7, "1e-07"),
    ])
    func numbersReadBackToTheSameDouble(value: Double, text: String) {
        #expect(JSONText.number(value) == text)
        if value.isFinite { #expect(Double(text) == value) }
    }

    @Test func stringsAreEscaped() {
        #expect(JSONText.string("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }
}
