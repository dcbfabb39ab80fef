// libFuzzer entry for the scenario reports (text and JUnit): the input is scenario names,
// messages and outputs separated by NUL bytes (names as a file system would give them, any byte
// but NUL and '/'). Whatever they hold, each report line is one the report wrote: as many
// unindented lines as scenarios plus the summary, last; no control character but a tab
// (tracebacks) reaches a line; the JUnit file has one <testcase> per scenario and no raw
// control characters, and no name or message opens or closes an element of its own.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        try checkReports(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("\(error)")
    }
    return 0
}

struct ReportFinding: Error, CustomStringConvertible {
    let description: String
}

func checkReports(_ bytes: [UInt8]) throws {
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var results: [ScenarioResult] = []
    var index = 0
    while index < parts.count, results.count < 64 {
        let name = parts[index].replacingOccurrences(of: "/", with: "_")
        let message = index + 1 < parts.count ? parts[index + 1] : ""
        let scenario = Scenario(name: name, scriptPath: "dir/" + name + ".lua", eventsPath: nil,
                                expectedPath: "dir/" + name + ".expected.jsonl", hasExpected: true)
        let outcomes: [ScenarioResult.Outcome] = [.passed, .updated, .failed(message), .error(message), .skipped(message)]
        let outcome = outcomes[results.count % outcomes.count]
        results.append(ScenarioResult(scenario: scenario, outcome: outcome, duration: 0, stdout: message, stderr: message))
        index += 2
    }
    let report = ScenarioReport(results)
    let lines = report.lines.flatMap { $0.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    // Prefixes compared as scalars: a name may start with a combining mark, which makes one
    // Character with the space before it.
    func starts(_ line: String, _ prefix: String) -> Bool { line.unicodeScalars.starts(with: prefix.unicodeScalars) }
    let heads = lines.filter { !starts($0, "        ") }
    guard heads.count == results.count + 1, heads.last == report.summaryLine else {
        throw ReportFinding(description: "\(heads.count) unindented lines for \(results.count) scenarios: \(heads)")
    }
    let prefixes = ["ok      ", "updated ", "skip    ", "FAIL    "]
    for (head, result) in zip(heads, results) where !prefixes.contains(where: { starts(head, $0) }) {
        throw ReportFinding(description: "a line the report did not write: \(head.debugDescription) for \(result.scenario.name.debugDescription)")
    }
    for line in lines where line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || ($0.value >= 0x7F && $0.value < 0xA0) }) {
        throw ReportFinding(description: "a control character in a report line: \(line.debugDescription)")
    }
    let xml = JUnitReport.xml(report)
    if xml.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) {
        throw ReportFinding(description: "a raw control character in the JUnit file")
    }
    // Counted in bytes: a String compares graphemes, and a prepended mark (U+06DD) before a
    // '<' would hide it from a Character search.
    let utf8 = Array(xml.utf8)
    let tag = Array("<testcase ".utf8)
    let opened = (0..<max(0, utf8.count - tag.count + 1)).filter { utf8[$0] == 0x3C && utf8[$0..<$0 + tag.count].elementsEqual(tag) }.count
    let elements = utf8.filter { $0 == 0x3C }.count
    // <?xml, <testsuites, <testsuite and their two closing tags; per case <testcase, its body
    // (<skipped/>, or <failure>…</failure>, <system-out>…</system-out>, <system-err>…) and </testcase>.
    let expectedElements = 5 + results.count + results.reduce(0) { count, result in
        let kind: Int
        switch result.outcome {
        case .passed, .updated: kind = 0
        case .skipped: kind = 1
        case .failed, .error: kind = 2
        }
        let body = kind + (result.stdout.isEmpty ? 0 : 4)
        return count + body + (body > 0 ? 1 : 0)
    }
    guard opened == results.count, elements == expectedElements else {
        throw ReportFinding(description: "JUnit: \(opened) testcases for \(results.count) scenarios, \(elements) '<' for \(expectedElements) tags")
    }
}
