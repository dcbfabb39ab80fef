import Foundation
import Testing
@testable import MotionScenarios
import MotionJSON
import MotionTestSupport

/// The comparison `motionscript test` makes while output streams in (bytes first, JSON only for
/// lines that differ, the expected file a chunk at a time) gives exactly what comparing whole
/// parsed lines gives: the same outcome, the same diff, the same errors.
@Suite struct StreamedComparisonTests {
    /// Deterministic pseudo-random numbers (a test must fail the same way every time).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func outputLine(_ i: Int) -> String {
        #"{"t":\#(Double(i) * 0.004),"name":"position","value":{"x":\#(Double(i) * 0.25),"y":\#(100 + i / 3)}}"#
    }

    /// The streamed outcome: nil, a diff, or the error's text. Expected bytes are read `chunk`
    /// bytes at a time and output arrives in pieces of `piece` bytes.
    static func streamed(expected: [UInt8], output: [String], chunk: Int, piece: Int) -> String? {
        do {
            var reader = ExpectedLineReader(bytes: expected, chunk: chunk)
            try OutputComparison.check(&reader, file: "e.jsonl")
            var comparison = StreamedComparison(expected: ExpectedLineReader(bytes: expected, chunk: chunk))
            let bytes = Array(output.map { $0 + "\n" }.joined().utf8)
            for start in stride(from: 0, to: bytes.count, by: piece) {
                bytes[start..<min(bytes.count, start + piece)].withUnsafeBytes { comparison.consume($0) }
            }
            return try comparison.finish(expectedFile: "e.jsonl")
        } catch {
            return "error: \(error)"
        }
    }

    /// What comparing the whole parsed lines gives.
    static func whole(expected: [UInt8], output: [String]) -> String? {
        do {
            let lines = try OutputComparison.parseExpected(bytes: expected, file: "e.jsonl")
            return OutputComparison.difference(expected: lines, actual: output, expectedFile: "e.jsonl")
        } catch {
            return "error: \(error)"
        }
    }

    @Test func everyKindOfDifferenceGivesTheDiffOfTheWholeLines() {
        var random = Generator(state: 7)
        for round in 0..<300 {
            let count = [0, 1, 2, 5, 40, 300][round % 6]
            var expected = (0..<count).map(Self.outputLine)
            var output = expected
            // Edits on either side: a changed number, a line in or out, keys in another order,
            // a number printed otherwise or off by less than the tolerance, blank lines, CRLF.
            for _ in 0..<random.next(4) {
                let at = random.next(output.count + 1)
                switch random.next(7) {
                case 0 where at < output.count: output[at] = output[at].replacingOccurrences(of: "position", with: "moved")
                case 1: output.insert(Self.outputLine(random.next(1000)), at: at)
                case 2 where at < output.count: output.remove(at: at)
                case 3 where at < expected.count: expected[at] = #"{"value":{"y":1.0e2,"x":0},"name":"position","t":0}"#
                case 4 where at < expected.count: expected[at] = expected[at].replacingOccurrences(of: ".", with: ".0000000000001")
                case 5 where at < expected.count: expected[at] += "\r"
                case 6 where at <= expected.count: expected.insert(" \t", at: at)
                default: break
                }
            }
            let bom = round % 10 == 3 ? "\u{FEFF}" : ""
            let text = Array((bom + expected.joined(separator: "\n") + (round % 2 == 0 ? "\n" : "")).utf8)
            let want = Self.whole(expected: text, output: output)
            for (chunk, piece) in [(1, 1), (7, 13), (64, 5), (ExpectedLineReader.chunkSize, 1 << 20)] {
                let got = Self.streamed(expected: text, output: output, chunk: chunk, piece: piece)
                #expect(got == want, "round \(round), chunks \(chunk)/\(piece)")
            }
        }
    }

    @Test func aLateDifferenceIsNumberedAndShownWithItsContext() {
        let expected = (0..<20_000).map(Self.outputLine)
        var output = expected
        output[19_990] = Self.outputLine(1)
        output.append(Self.outputLine(7))
        let text = Array((expected.joined(separator: "\n") + "\n").utf8)
        let diff = Self.streamed(expected: text, output: output, chunk: ExpectedLineReader.chunkSize, piece: 65_536)
        #expect(diff == """
            output line 19991 differs
            --- e.jsonl
            +++ actual output
            @@ -19988,7 +19988,7 @@
             \(expected[19_987])
             \(expected[19_988])
             \(expected[19_989])
            -\(expected[19_990])
            +\(Self.outputLine(1))
             \(expected[19_991])
             \(expected[19_992])
             \(expected[19_993])
            @@ -19998,3 +19998,4 @@
             \(expected[19_997])
             \(expected[19_998])
             \(expected[19_999])
            +\(Self.outputLine(7))
            """)
        #expect(diff == Self.whole(expected: text, output: output))
        #expect(Self.streamed(expected: text, output: expected, chunk: 4096, piece: 1000) == nil)
    }

    /// The file is checked whole: a bad line is the error even after lines that differ, or
    /// when the output has the same bytes.
    @Test func aBadExpectedLineIsAnErrorWhereverItIs() {
        let good = (0..<5_000).map(Self.outputLine)
        for bad in [#"{"t":0,"name":"x","value":1e400}"#, #"{"a":1,"a":1}"#, #"{"a":[1,]}"#, "\"\u{1}\""] {
            let text = Array((good + [bad]).joined(separator: "\n").utf8)
            let error = "error: e.jsonl:5001: not JSON Lines: "
            #expect(Self.streamed(expected: text, output: good + [bad], chunk: 4096, piece: 100)?.hasPrefix(error) == true, "\(bad)")
            #expect(Self.streamed(expected: text, output: ["1"], chunk: 4096, piece: 100)?.hasPrefix(error) == true, "\(bad)")
            #expect(Self.whole(expected: text, output: ["1"])?.hasPrefix(error) == true, "\(bad)")
        }
    }

    /// The reader splits lines as the whole file would be split, whatever its chunks.
    @Test func linesAreTheSameWhateverTheChunks() throws {
        let text = Array("\u{FEFF}a\r\n\r\n \t\nbb\rc\n\n\r\r\nlast".utf8)
        for chunk in [1, 2, 3, 5, 64] {
            var reader = ExpectedLineReader(bytes: text, chunk: chunk)
            var lines: [String] = [], numbers: [Int] = []
            while let line = try reader.next() {
                lines.append(reader.text(of: line))
                numbers.append(line.number)
            }
            #expect(lines == ["a", "bb\rc", "\r", "last"], "chunk \(chunk)")
            #expect(numbers == [1, 4, 6, 7], "chunk \(chunk)")
        }
    }
}

/// The quick check says "valid" only for lines the parser accepts, and does say it for output.
@Suite struct JSONLineCheckTests {
    static func check(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { JSONLineCheck.isSurelyValid($0) }
    }

    @Test func outputLinesAreKnownValidWithoutParsing() {
        for line in [#"{"t":0.144,"name":"position","value":{"x":109,"y":204.5}}"#,
                     #"{"t":0,"name":"tap","state":"active"}"#,
                     #"{"t":1,"name":"v","value":[true,false,null,-0.5,"a b"]}"#, "[]", "{}", " 1 ", "-0",
                     // It reads with the parser's scanner: exponents, escapes and UTF-8 in values too.
                     "1e5", #""\u0041""#, "\"é\"", #"{"a":"é \u00e9"}"#, #"{"a":{"a":1},"b":[{"a":2}]}"#] {
            #expect(Self.check(line), "\(line)")
        }
    }

    @Test(arguments: [#"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":1}}"#, "1e400", "[1,]", #"{"a":1,}"#, "tru", "01x", "-", "1.", ".5",
                      "[", #"{"a" 1}"#, "\"abc", "1 2", "{'a':1}", "\"\u{1}\"", "", "nul",
                      // Keys it cannot compare as bytes: escaped, or not ASCII (Swift compares
                      // Strings by canonical equivalence: "é" and "e\u{301}" are one key).
                      #"{"\u0041":1}"#, "{\"é\":1,\"e\u{301}\":2}", #"{"é":1,"\u00e9":2}"#, "[1 2]",
                      String(repeating: "[", count: 600) + String(repeating: "]", count: 600), String(repeating: "9", count: 400)])
    func unusualOrInvalidLinesAreLeftToTheParser(line: String) {
        #expect(!Self.check(line))
    }

    /// Bytes of valid lines changed at random: whatever the check calls valid, the parser accepts.
    @Test func theCheckNeverAcceptsWhatTheParserRefuses() {
        var random = StreamedComparisonTests.Generator(state: 11)
        let alphabet = Array(#"{}[]",:.-+eE0123456789 tfalsenu\"#.utf8) + [0x09, 0x0D, 0x01, 0xC3]
        let seeds = [#"{"t":0.144,"name":"position","value":{"x":109,"y":204.5}}"#, #"[1,[2,{"a":null}],"x",true,-3.25]"#]
        for round in 0..<20_000 {
            var bytes = Array(seeds[round % 2].utf8)
            for _ in 0...random.next(3) {
                let at = random.next(bytes.count)
                switch random.next(3) {
                case 0: bytes[at] = alphabet[random.next(alphabet.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[random.next(alphabet.count)], at: at)
                }
            }
            let valid = bytes.withUnsafeBufferPointer { JSONLineCheck.isSurelyValid($0) }
            if valid, let text = String(validating: bytes, as: UTF8.self) {
                #expect((try? JSONValue.parse(text)) != nil, "\(text)")
            } else if valid {
                Issue.record("valid but not UTF-8: \(bytes)")
            }
        }
    }
}

/// What a scenario's run keeps of its output while it streams through the batch.
@Suite struct StreamedOutputTests {
    /// The JUnit `<system-out>` keeps the first 64 KiB and counts every byte left out (all the
    /// lines after the cut, not only the rest of the line it fell in).
    @Test func theKeptOutputCountsEveryByteLeftOut() throws {
        let folder = makeTemporaryFolder("streamed")
        let lines = (1...5000).map { #"{"t":0,"name":"n","value":\#($0)}"# }
        let text = lines.map { $0 + "\n" }.joined()
        writeScenario("many", script: "for i = 1, 5000 do motion.emit('n', i) end\n", expected: text, in: folder)
        let report = try ScenarioBatch(paths: [folder.path], options: workerOptions()).run()
        #expect(report.results.map(\.outcome) == [.passed])
        let kept = String(text.utf8.prefix(ReportText.maxCapturedBytes))!
        #expect(report.results.first?.stdout == kept + "\n… \(text.utf8.count - ReportText.maxCapturedBytes) more bytes\n")
    }

    /// A passing scenario of 30,000 lines, compared as it streams (and a change at its end found).
    @Test func aLongScenarioPassesAndItsLastLineIsStillCompared() throws {
        let folder = makeTemporaryFolder("streamed-long")
        let lines = (1...30_000).map { #"{"t":0,"name":"n","value":\#($0)}"# }
        let script = "for i = 1, 30000 do motion.emit('n', i) end\n"
        writeScenario("long", script: script, expected: lines.map { $0 + "\n" }.joined(), in: folder)
        writeScenario("last", script: script, expected: (lines.dropLast() + [#"{"t":0,"name":"n","value":1}"#]).map { $0 + "\n" }.joined(), in: folder)
        let report = try ScenarioBatch(paths: [folder.path], options: workerOptions()).run()
        #expect(report.results.map(\.scenario.name) == ["last", "long"])
        #expect(report.results.last?.outcome == .passed)
        #expect(report.results.first?.outcome == .failed("""
            output line 30000 differs
            --- \(folder.path)/last.expected.jsonl
            +++ actual output
            @@ -29997,4 +29997,4 @@
             {"t":0,"name":"n","value":29997}
             {"t":0,"name":"n","value":29998}
             {"t":0,"name":"n","value":29999}
            -{"t":0,"name":"n","value":1}
            +{"t":0,"name":"n","value":30000}
            """))
    }
}
