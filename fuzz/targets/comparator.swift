// libFuzzer entry for the scenario output comparator: the input is an expected file and actual
// output lines, separated by the first NUL byte. Parsing may fail; comparing must never trap, a
// line always matches itself, and the streamed comparison (bytes first, the file a chunk at a
// time, the quick check before the parser) gives exactly what whole parsed lines give.
// A broken invariant is thrown by the check and turned into a crash only here, at the entry,
// where libFuzzer expects one; the check itself can run inside a test without ending it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try checkComparator(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("\(error)")
    }
    return 0
}

struct ComparatorFinding: Error, CustomStringConvertible {
    let description: String
}

func checkComparator(_ bytes: [UInt8]) throws {
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    // Split on LF bytes, as output is (a String would hold "\r\n" as one character).
    let actual = split < bytes.count
        ? bytes[(split + 1)...].split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        : []
    let expectedBytes = Array(bytes[..<split])
    var checked = ExpectedLineReader(bytes: expectedBytes, chunk: 7)
    let checkError = (try? OutputComparison.check(&checked, file: "expected")) == nil
    guard let expected = try? OutputComparison.parseExpected(bytes: expectedBytes, file: "expected") else {
        if !checkError { throw ComparatorFinding(description: "the check accepted an expected file the parser refuses") }
        return
    }
    if checkError { throw ComparatorFinding(description: "the check refused an expected file the parser accepts") }
    let whole = OutputComparison.difference(expected: expected, actual: actual, expectedFile: "expected")
    var streamed = StreamedComparison(expected: ExpectedLineReader(bytes: expectedBytes, chunk: 7))
    let output = Array(actual.map { $0 + "\n" }.joined().utf8)
    for start in stride(from: 0, to: output.count, by: 5) {
        output[start..<min(output.count, start + 5)].withUnsafeBytes { streamed.consume($0) }
    }
    if (try? streamed.finish(expectedFile: "expected")) != whole {
        throw ComparatorFinding(description: "the streamed comparison differs from the whole lines'")
    }
    for line in expected where !OutputComparison.matches(line.value, line.value) {
        throw ComparatorFinding(description: "a parsed line does not match itself: \(line.text)")
    }
}
