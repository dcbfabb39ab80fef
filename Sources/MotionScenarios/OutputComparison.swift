import MotionJSON
/// Compares a scenario's output lines with the expected ones: each line parsed as JSON and
/// compared structurally (key order does not matter), numbers within a tolerance, so output
/// that prints the same doubles differently, or drifts in the last bits, still matches.
///
/// The rules, exactly: expected lines end with LF or CRLF; blank lines (spaces and tabs only) are
/// skipped; a UTF-8 byte order mark at the start is ignored. Each other line must be one JSON
/// value in valid UTF-8, with no duplicate object keys, no unpaired surrogate escapes, and no
/// number beyond a double's range (`1e400`): otherwise the expected file is in error, naming
/// its line. Two numbers match when they differ by at most `tolerance`, absolutely or relative
/// to the larger; `true` is not `1`; arrays match in order, objects by key.
public enum OutputComparison {
    /// Numbers match when they differ by at most this, absolutely or relative to the larger.
    public static let tolerance = 1e-9
    /// Lines of a diff shown (hunk headers included); the rest is counted.
    public static let maxDiffLines = 60

    /// One expected line and where it came from.
    public struct ExpectedLine {
        public var line: Int
        public var text: String
        public var value: JSONValue
    }

    /// The non-blank lines of an expected file; a line that is not JSON is an error naming
    /// `file:line`.
    public static func parseExpected(_ text: String, file: String) throws -> [ExpectedLine] {
        try parseExpected(bytes: Array(text.utf8), file: file)
    }

    /// The same from the file's bytes: lines are split on bytes (a String would hold "\r\n" as
    /// one character), and each must be valid UTF-8.
    public static func parseExpected(bytes: [UInt8], file: String) throws -> [ExpectedLine] {
        var reader = ExpectedLineReader(bytes: bytes)
        var lines: [ExpectedLine] = []
        while let line = try reader.next() {
            lines.append(try reader.withBytes(of: line) { try parseLine($0, number: line.number, file: file) })
        }
        return lines
    }

    /// Checks every line of an expected file by the rules above, keeping none: a file of any
    /// size, in the memory of a few lines. Lines the quick check knows are not parsed at all.
    static func check(_ reader: inout ExpectedLineReader, file: String) throws {
        while let line = try reader.next() {
            try reader.withBytes(of: line) { bytes in
                if !JSONLineCheck.isSurelyValid(bytes) { _ = try parseLine(bytes, number: line.number, file: file) }
            }
        }
    }

    /// One expected line, parsed; an error names `file:line`.
    static func parseLine(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, file: String) throws -> ExpectedLine {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ExpectedFileError(description: "\(file):\(number): not valid UTF-8")
        }
        do {
            return ExpectedLine(line: number, text: text, value: try JSONValue.parse(text))
        } catch {
            throw ExpectedFileError(description: "\(file):\(number): not JSON Lines: \(error)")
        }
    }

    /// nil when the output matches; otherwise what differs first, then a unified diff of the
    /// expected lines against the output (capped; see `ReportText`).
    public static func difference(expected: [ExpectedLine], actual: [String], expectedFile: String) -> String? {
        let values = actual.map { (try? JSONValue.parse($0)) ?? .string($0) }
        guard let first = firstDifference(expected: expected, actual: values) else { return nil }
        return report(firstDifference: first, expectedCount: expected.count, expected: expected, actual: actual,
                      values: values, expectedFile: expectedFile)
    }

    /// The message for output that differs first at line index `firstDifference`. `expected`,
    /// `actual` and `values` hold the lines from `offset` on; of those, the first `context`
    /// (all before `firstDifference`) are known to match, and only the expected ones are shown.
    static func report(firstDifference first: Int, expectedCount: Int, expected: [ExpectedLine], actual: [String],
                       values: [JSONValue], offset: Int = 0, context: Int = 0, expectedFile: String) -> String {
        let actualCount = offset + actual.count
        let summary: String
        if first < min(expectedCount, actualCount) {
            summary = "output line \(first + 1) differs"
        } else if actualCount < expectedCount {
            summary = "output ended early (\(actualCount) lines, \(expectedCount) expected)"
        } else {
            summary = "more output than expected (\(actualCount) lines, \(expectedCount) expected)"
        }
        let old = expected.map { ReportText.capLine($0.text) }, new = actual.map { ReportText.capLine($0) }
        let diff = UnifiedDiff.lines(old: old, new: new, offset: offset) { o, n in
            o < context && n < context ? o == n : matches(expected[o].value, values[n])
        }
        var body = ["--- \(ReportText.visible(expectedFile))", "+++ actual output"]
        body += diff.prefix(maxDiffLines)
        if diff.count > maxDiffLines { body.append("… \(diff.count - maxDiffLines) more lines of diff") }
        return ([summary] + body).joined(separator: "\n")
    }

    /// The index of the first line that differs, or nil when all match.
    static func firstDifference(expected: [ExpectedLine], actual: [JSONValue]) -> Int? {
        for index in 0..<max(expected.count, actual.count) {
            guard index < expected.count, index < actual.count, matches(expected[index].value, actual[index]) else { return index }
        }
        return nil
    }

    public static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)):
            // Finite only: the parser refuses what overflows, and infinity would match anything.
            guard x.isFinite, y.isFinite else { return false }
            let difference = abs(x - y)
            return x == y || difference <= tolerance || difference <= tolerance * max(abs(x), abs(y))
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { matches(value, $0) } ?? false }
        default:
            return a == b
        }
    }
}

/// An expected file that cannot be read as JSON Lines.
public struct ExpectedFileError: Error, CustomStringConvertible {
    public let description: String
}
