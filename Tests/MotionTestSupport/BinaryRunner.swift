import Foundation

/// The repository root (examples, docs) for command-level tests.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs the built `motionscript` binary (found beside the test bundle) with `arguments` in
/// `directory` (default the repository root) and returns its exit status and output.
/// `environment`: variables set (or, with nil, removed) over the test's own.
public func runMotionscript(_ arguments: [String], in directory: URL = repositoryRoot, stdin: Data? = nil,
                     environment: [String: String?] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    if !environment.isEmpty {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
    }
    process.executableURL = URL(fileURLWithPath: motionscriptBinary)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    if stdin != nil { process.standardInput = input }
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    // Read stderr on another thread so neither pipe can fill up and block the child.
    let errorData = ErrorCollector()
    let reader = Thread { errorData.data = err.fileHandleForReading.readDataToEndOfFile(); errorData.done.signal() }
    reader.start()
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    errorData.done.wait()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: errorData.data, as: UTF8.self))
}

private final class ErrorCollector: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
