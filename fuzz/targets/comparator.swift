// libFuzzer entry for the scenario output comparator: the input is an expected file and actual
// output lines, separated by the first NUL byte. Parsing may fail; comparing must never trap, and
// a line always matches itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let actualText = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : ""
    let actual = actualText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let expected = try? OutputComparison.parseExpected(bytes: Array(bytes[..<split]), file: "expected") else { return 0 }
    _ = OutputComparison.difference(expected: expected, actual: actual, expectedFile: "expected")
    for line in expected where !OutputComparison.matches(line.value, line.value) {
        fatalError("a parsed line does not match itself: \(line.text)")
    }
    return 0
}
