/// Compares a scenario's output lines with the expected ones: each line parsed as JSON and
/// compared structurally (key order does not matter), numbers within a tolerance, so output
/// that prints the same doubles differently, or drifts in the last bits, still matches.
public enum OutputComparison {
    /// Numbers match when they differ by at most this, absolutely or relative to the larger.
    public static let tolerance = 1e-9

    /// One expected line and where it came from.
    public struct ExpectedLine {
        public var line: Int
        public var text: String
        public var value: JSONValue
    }

    /// The non-blank lines of an expected file; a line that is not JSON is an error naming
    /// `file:line`.
    public static func parseExpected(_ text: String, file: String) throws -> [ExpectedLine] {
        var lines: [ExpectedLine] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                lines.append(ExpectedLine(line: offset + 1, text: line, value: try JSONValue.parse(line)))
            } catch let error as JSONValue.ParseError {
                throw ExpectedFileError(description: "\(file):\(offset + 1): not JSON Lines: \(error)")
            }
        }
        return lines
    }

    /// nil when the output matches; otherwise the first difference, with both lines.
    public static func firstDifference(expected: [ExpectedLine], actual: [String]) -> String? {
        for index in 0..<max(expected.count, actual.count) {
            let output = index < actual.count ? actual[index] : nil
            let wanted = index < expected.count ? expected[index] : nil
            let place = "output line \(index + 1)" + (wanted.map { $0.line != index + 1 ? " (expected file line \($0.line))" : "" } ?? "")
            switch (wanted, output) {
            case let (wanted?, output?):
                let value = (try? JSONValue.parse(output)) ?? .string(output)
                if !matches(wanted.value, value) {
                    return "\(place) differs\n  expected: \(wanted.text)\n  actual:   \(output)"
                }
            case let (wanted?, nil):
                return "\(place): output ended early (\(actual.count) lines, \(expected.count) expected)\n  expected: \(wanted.text)"
            case let (nil, output?):
                return "\(place): more output than expected (\(actual.count) lines, \(expected.count) expected)\n  actual:   \(output)"
            case (nil, nil):
                break
            }
        }
        return nil
    }

    public static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)):
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
