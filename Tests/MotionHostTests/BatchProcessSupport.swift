import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `motionscript` binary beside the test bundle: the batch runs its scenarios in
/// worker processes of this binary.
let motionscriptBinary: String = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("motionscript").path), url.path != "/" {
        url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("motionscript").path
}()

/// Runs the binary; returns its exit status and both streams.
func runMotionscript(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: motionscriptBinary)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes drained at once: a full stderr pipe must not stall the child while stdout is read.
    let stderrData = DataBox()
    let stderrDone = DispatchSemaphore(value: 0)
    Thread {
        stderrData.data = err.fileHandleForReading.readDataToEndOfFile()
        stderrDone.signal()
    }.start()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    stderrDone.wait()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderrData.data, as: UTF8.self))
}

/// Writes a scenario: NAME.lua, NAME.events.jsonl (one pointer down) and NAME.expected.jsonl.
func writeScenario(_ name: String, script: String, expected: String?, in folder: URL,
                   events: String = #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n") {
    writeFile(script, name + ".lua", in: folder)
    writeFile(events, name + ".events.jsonl", in: folder)
    if let expected { writeFile(expected, name + ".expected.jsonl", in: folder) }
}

/// Whether process `pid` still runs (a zombie counts as gone).
func processIsAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    guard let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
    return state != "Z" && state != "X"
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
