import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `motionscript` binary beside the test bundle: the batch runs its scenarios in
/// worker processes of this binary.
public let motionscriptBinary: String = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("motionscript").path), url.path != "/" {
        url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("motionscript").path
}()

/// Writes a scenario: NAME.lua, NAME.events.jsonl (one pointer down) and NAME.expected.jsonl.
public func writeScenario(_ name: String, script: String, expected: String?, in folder: URL,
                   events: String = #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n") {
    writeFile(script, name + ".lua", in: folder)
    writeFile(events, name + ".events.jsonl", in: folder)
    if let expected { writeFile(expected, name + ".expected.jsonl", in: folder) }
}

/// Whether process `pid` still runs (a zombie counts as gone).
public func processIsAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    guard let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
    return state != "Z" && state != "X"
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
