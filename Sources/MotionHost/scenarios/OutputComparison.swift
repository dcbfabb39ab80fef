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
        var lines: [ExpectedLine] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while start <= bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            number += 1
            let raw = bytes[start..<end]
            start = newline + 1
            if raw.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let line = String(validating: raw, as: UTF8.self) else {
                throw ExpectedFileError(description: "\(file):\(number): not valid UTF-8")
            }
            do {
                lines.append(ExpectedLine(line: number, text: line, value: try JSONValue.parse(line)))
            } catch let error as JSONValue.ParseError {
                throw ExpectedFileError(description: "\(file):\(number): not JSON Lines: \(error)")
            }
        }
        return lines
    }

    /// nil when the output matches; otherwise what differs first, then a unified diff of the
    /// expected lines against the output (capped; see `ReportText`).
    public static func difference(expected: [ExpectedLine], actual: [String], expectedFile: String) -> String? {
        let values = actual.map { (try? JSONValue.parse($0)) ?? .string($0) }
        guard let first = firstDifference(expected: expected, actual: values) else { return nil }
        let summary: String
        if first < min(expected.count, actual.count) {
            summary = "output line \(first + 1) differs"
        } else if actual.count < expected.count {
            summary = "output ended early (\(actual.count) lines, \(expected.count) expected)"
        } else {
            summary = "more output than expected (\(actual.count) lines, \(expected.count) expected)"
        }
        let diff = UnifiedDiff.lines(old: expected.map { ReportText.capLine($0.text) }, new: actual.map { ReportText.capLine($0) }) {
            matches(expected[$0].value, values[$1])
        }
        var body = ["--- \(expectedFile)", "+++ actual output"]
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
