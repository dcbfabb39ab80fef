import Foundation
import Testing
import MotionTestSupport

/// `test` runs scenarios sandboxed unless `--trusted`; `run --sandbox` opts in; `--memory` out of
/// range is bad usage.
@Suite(.timeLimit(.minutes(5))) struct SandboxCommandTests {
    private func motionscript(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        try runMotionscript(arguments)
    }

    /// A scenario that writes a file through a child process, in a fresh folder.
    private func writingScenario() throws -> (folder: String, marker: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let marker = folder.appendingPathComponent("marker").path
        try "os.execute('touch \(marker)')\nmotion.emit('x', 1)\n"
            .write(to: folder.appendingPathComponent("w.lua"), atomically: true, encoding: .utf8)
        try "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":0,\"y\":0}\n"
            .write(to: folder.appendingPathComponent("w.events.jsonl"), atomically: true, encoding: .utf8)
        try "{\"t\":0,\"name\":\"x\",\"value\":1}\n"
            .write(to: folder.appendingPathComponent("w.expected.jsonl"), atomically: true, encoding: .utf8)
        return (folder.path, marker)
    }

    @Test func scenariosRunSandboxedUnlessTrusted() throws {
        let (folder, marker) = try writingScenario()
        let sandboxed = try motionscript("test", folder)
        #expect(sandboxed.status == 1)
        #expect(sandboxed.stdout.contains("w.lua:1: os.execute is not available in the sandbox"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        let trusted = try motionscript("test", folder, "--trusted")
        #expect(trusted.status == 0)
        #expect(trusted.stdout.hasSuffix("1 passed, 0 failed\n"))
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test func runSandboxRefusesWhatTestRefuses() throws {
        let (folder, marker) = try writingScenario()
        let r = try motionscript("run", folder + "/w.lua", "--sandbox")
        #expect(r.status == 1)
        #expect(r.stderr.contains("w.lua:1: os.execute is not available in the sandbox"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test(arguments: ["run", "test"])
    func memoryBeyondWhatBytesCanCountIsBadUsage(command: String) throws {
        let (folder, _) = try writingScenario()
        let r = try motionscript(command, folder + "/w.lua", "--memory", "8796093022208")
        #expect(r.status == 2)
        #expect(r.stderr.contains("--memory must be at most 8796093022207 MiB, got 8796093022208"))
    }
}
