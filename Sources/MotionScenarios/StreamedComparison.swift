#if canImport(Glibc)
import Glibc
import MotionJSON
#endif

/// Compares a scenario's output with its expected file while the output arrives, by the rules
/// of `OutputComparison`, in the memory of a few lines while they have the same bytes: such a
/// line matches without being parsed (it has the bytes the output writer made, so it is valid;
/// a file with any other line is checked whole, `OutputComparison.check`, before a report). From the first line whose bytes differ, the rest of both sides is
/// kept, and compared as JSON once the output has ended (as whole lines were: parsing never
/// slows the script down, nor counts in its time limit); the diff is then the one the whole
/// lines would give.
struct StreamedComparison {
    private var expected: ExpectedLineReader
    /// The start of an output line whose end has not arrived yet.
    private var partial: [UInt8] = []
    private var outputLines = 0
    /// The first line whose bytes differ from the expected ones (or that has none to match).
    private var firstDifference: Int?
    /// Once bytes differ: every line from `tailStart` on (the `context` lines before, which
    /// match, then the rest). Output context lines are not kept: a diff shows context from the
    /// expected side.
    private var tailStart = 0
    private var context = 0
    private var tailExpected: [OutputComparison.ExpectedLine] = []
    private var tailActual: [String] = []
    /// A read of the expected file that failed while output arrived.
    private var readError: Error?

    init(expected: ExpectedLineReader) {
        self.expected = expected
    }

    /// Output bytes, as the script wrote them: lines ended by LF, cut anywhere.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        var rest = UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count)
        if !partial.isEmpty {
            guard let newline = Self.newline(in: rest) else { return partial.append(contentsOf: rest) }
            var line = partial
            partial = []
            line.append(contentsOf: rest[..<newline])
            line.withUnsafeBufferPointer { take($0) }
            line.removeAll(keepingCapacity: true)
            partial = line
            rest = UnsafeBufferPointer(rebasing: rest[(newline + 1)...])
        }
        while let newline = Self.newline(in: rest) {
            take(UnsafeBufferPointer(rebasing: rest[..<newline]))
            rest = UnsafeBufferPointer(rebasing: rest[(newline + 1)...])
        }
        partial.append(contentsOf: rest)
    }

    /// After the last output: true when every output line had the bytes of its expected line and
    /// the expected file has no lines left, so the output matches without anything parsed (nor
    /// `finish` needed). Otherwise false, and `finish` tells how it differs.
    mutating func matchesByteForByte() -> Bool {
        if !partial.isEmpty {
            let line = partial
            partial = []
            line.withUnsafeBufferPointer { take($0) }
        }
        guard readError == nil, firstDifference == nil else { return false }
        do {
            guard let line = try expected.next() else { return true }
            differ(expectedLine: line, actual: nil)
        } catch {
            readError = error
        }
        return false
    }

    /// After the last output: nil when it matched, otherwise the report (`OutputComparison`).
    /// Throws when the expected file could not be read.
    mutating func finish(expectedFile: String) throws -> String? {
        if !partial.isEmpty {
            let line = partial
            partial = []
            line.withUnsafeBufferPointer { take($0) }
        }
        if let readError { throw readError }
        if firstDifference == nil {
            guard let line = try expected.next() else { return nil }
            differ(expectedLine: line, actual: nil)
        }
        while let line = try expected.next() { tailExpected.append(parsed(line)) }
        let values = tailActual.map { (try? JSONValue.parse($0)) ?? .string($0) }
        // Lines whose bytes differ may still match as JSON: the first that does not, if any.
        var first = context
        while first < tailExpected.count, first < values.count, OutputComparison.matches(tailExpected[first].value, values[first]) {
            first += 1
        }
        if first == tailExpected.count, first == values.count { return nil }
        return OutputComparison.report(
            firstDifference: tailStart + first, expectedCount: tailStart + tailExpected.count, expected: tailExpected,
            actual: tailActual, values: values, offset: tailStart, context: context, expectedFile: expectedFile)
    }

    private mutating func take(_ line: UnsafeBufferPointer<UInt8>) {
        defer { outputLines += 1 }
        guard firstDifference == nil else { return tailActual.append(String(decoding: line, as: UTF8.self)) }
        let next: ExpectedLineReader.Line?
        do {
            next = try expected.next()
        } catch {
            readError = error
            next = nil
        }
        guard let next else { return differ(expectedLine: nil, actual: line) }
        if !expected.withBytes(of: next, { Self.sameBytes($0, line) }) { differ(expectedLine: next, actual: line) }
    }

    /// The first difference in bytes, at output line `outputLines`: from here on every line is
    /// kept, with the expected lines before it that a diff shows as context.
    private mutating func differ(expectedLine: ExpectedLineReader.Line?, actual: UnsafeBufferPointer<UInt8>?) {
        let first = outputLines
        firstDifference = first
        tailStart = max(0, first - ExpectedLineReader.kept)
        context = first - tailStart
        tailExpected = expected.recentLines(from: tailStart, to: first).map { parsed($0) }
        tailActual = Array(repeating: "", count: context)
        if let expectedLine { tailExpected.append(parsed(expectedLine)) }
        if let actual { tailActual.append(String(decoding: actual, as: UTF8.self)) }
    }

    /// An expected line the check found valid, parsed (should the file have changed since the
    /// check, a line that no longer parses stands as null: the diff still shows its text).
    private func parsed(_ line: ExpectedLineReader.Line) -> OutputComparison.ExpectedLine {
        let text = expected.text(of: line)
        return OutputComparison.ExpectedLine(line: line.number, text: text, value: (try? JSONValue.parse(text)) ?? .null)
    }

    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    private static func newline(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty, let hit = memchr(base, 0x0A, bytes.count) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
