import Foundation
import MotionPluginHost
import MotionRun
import MotionJSON
import MotionLua
import MotionStreams
import Testing
import MotionTestSupport

/// Output lines as they reach the descriptor: names escaped once and copied after, lines of any
/// length written whole.
@Suite struct OutputLineTests {
    /// Runs `body` on an output writing to a fresh file, then returns the file's text.
    func written(_ body: (JSONLinesOutput) -> Void) throws -> String {
        let path = makeTemporaryFolder("output").appendingPathComponent("out.jsonl").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        let output = JSONLinesOutput(fileDescriptor: fd)
        body(output)
        output.flush()
        close(fd)
        #expect(output.failure == nil)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func everyNameIsWrittenTheSameOnEveryLineWhateverItHolds() throws {
        // More names than the writer keeps escaped, some needing escapes, in turn and again.
        let names = (0..<40).map { i in i % 3 == 0 ? "n\"\\\n\t\u{1}é\(i)" : "stream\(i)" } + ["", String(repeating: "x", count: 300)]
        let text = try written { output in
            for round in 0..<3 {
                for (i, name) in names.enumerated() {
                    output.emit(t: Double(round), name: name, value: .number(Double(i) + 0.5))
                    output.emit(t: Double(round), name: name, state: i % 2 == 0 ? .active : .atRest)
                }
            }
        }
        var expected = ""
        for round in 0..<3 {
            for (i, name) in names.enumerated() {
                expected += "{\"t\":\(round),\"name\":\(JSONText.string(name)),\"value\":\(i).5}\n"
                expected += "{\"t\":\(round),\"name\":\(JSONText.string(name)),\"state\":\"\(i % 2 == 0 ? "active" : "atRest")\"}\n"
            }
        }
        #expect(text == expected)
        #expect(JSONText.string("n\"\\\n\t\u{1}é") == "\"n\\\"\\\\\\n\\t\\u0001é\"")
    }

    /// Swift calls canonically equivalent strings equal; the output keeps each name's own bytes.
    @Test func namesThatOnlyLookTheSameKeepTheirOwnBytes() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let text = try written { output in
            for _ in 0..<2 {
                output.emit(t: 0, name: composed, value: .number(1))
                output.emit(t: 0, name: decomposed, state: .active)
            }
        }
        let line1 = "{\"t\":0,\"name\":\"caf\u{E9}\",\"value\":1}\n"
        let line2 = "{\"t\":0,\"name\":\"cafe\u{301}\",\"state\":\"active\"}\n"
        #expect(Array(text.utf8) == Array((line1 + line2 + line1 + line2).utf8))
    }

    @Test func aLineLongerThanTheBufferIsWrittenWhole() throws {
        let long = String(repeating: "abcdefgh", count: 40_000)  // 320 KB, five times the buffer
        let text = try written { output in
            output.emit(t: 0.5, name: "short", value: .point(Point(x: 1.25, y: -2)))
            output.emit(t: 1, name: "long", value: .string(long))
            output.emit(t: 1.5, name: "short", value: .point(Point(x: 0.1 + 0.2, y: 1e-7)))
        }
        #expect(text == """
            {"t":0.5,"name":"short","value":{"x":1.25,"y":-2}}
            {"t":1,"name":"long","value":"\(long)"}
            {"t":1.5,"name":"short","value":{"x":0.30000000000000004,"y":1e-07}}

            """)
    }
}
