import Foundation
import Testing
@testable import MotionLua

/// The restricted standard library of `motionscript test` (and `run --sandbox`).
@Suite struct SandboxTests {
    static let refused = [
        ("os.execute('true')", "os.execute is not available in the sandbox"),
        ("io.popen('true')", "io.popen is not available in the sandbox"),
        ("os.remove('/tmp/x')", "os.remove is not available in the sandbox"),
        ("os.rename('/tmp/x', '/tmp/y')", "os.rename is not available in the sandbox"),
        ("os.exit(3)", "os.exit is not available in the sandbox"),
        ("os.tmpname()", "os.tmpname is not available in the sandbox"),
        ("os.setlocale('C')", "os.setlocale is not available in the sandbox"),
        ("io.tmpfile()", "io.tmpfile is not available in the sandbox"),
        ("io.open('/tmp/motionscript-sandbox-test', 'w')", "io.open: mode 'w' is not available in the sandbox"),
        ("io.open('/tmp/motionscript-sandbox-test', 'a+')", "io.open: mode 'a+' is not available in the sandbox"),
        ("io.output('/tmp/motionscript-sandbox-test')", "io.output(file) is not available in the sandbox"),
        ("package.loadlib('libc.so.6', 'puts')", "package.loadlib is not available in the sandbox"),
        ("debug.traceback()", "attempt to index a nil value (global 'debug')"),
        ("require 'debug'", "module 'debug' not found"),
    ]

    @Test(arguments: refused)
    func eachRemovedFunctionRaisesAtTheScriptsLine(source: String, message: String) throws {
        let error = try #require(setupError("local x = 1\n" + source, sandbox: true))
        #expect(error.message.contains("script.lua:2: \(message)"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/motionscript-sandbox-test"))
    }

    /// "--trusted lifts it" led to commands run (keys typed on the desktop) during tests and a
    /// scenario that asserts nothing; the hint for processes names motion.exec.
    @Test func processesPointAtMotionExecOtherRefusalsAtTrusted() throws {
        let execute = try #require(setupError("os.execute('notify-send hi')", sandbox: true))
        #expect(execute.message.contains("script.lua:1: os.execute is not available in the sandbox (use motion.exec: tests record its actions as output lines instead of running them)"), "\(execute.message)")
        #expect(!execute.message.contains("--trusted"))
        let popen = try #require(setupError("io.popen('ls')", sandbox: true))
        #expect(popen.message.contains("io.popen is not available in the sandbox (use motion.exec"), "\(popen.message)")
        let remove = try #require(setupError("os.remove('/tmp/x')", sandbox: true))
        #expect(remove.message.contains("os.remove is not available in the sandbox (motionscript test --trusted lifts it)"))
    }

    @Test func readingFilesAndTheRestOfTheLibraryStillWork() throws {
        let data = writeScript("hello\n", name: "data.txt")
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local f = assert(io.open("\(data)"))
            motion.emit("read", f:read("l"))
            f:close()
            motion.emit("rb", io.open("\(data)", "rb") ~= nil)
            motion.emit("time", type(os.time()))
            motion.emit("C searchers", #package.searchers)
            motion.emit("cpath", package.cpath)
            motion.emit("string", string.format("%d", 7))
            """), output: output, sandbox: true)
        defer { runtime.close() }
        try runtime.load()
        #expect(output.lines == ["0 read \"hello\"", "0 rb true", "0 time \"number\"", "0 C searchers 2",
                                 "0 cpath \"\"", "0 string \"7\""])
    }

    @Test func aTrustedRuntimeKeepsTheFullLibrary() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.emit("debug", type(debug))
            motion.emit("execute", type(os.execute))
            motion.emit("searchers", #package.searchers)
            """)
        defer { runtime.close() }
        #expect(runtime.isSandboxed == false)
        #expect(output.lines == ["0 debug \"table\"", "0 execute \"function\"", "0 searchers 4"])
    }
}
