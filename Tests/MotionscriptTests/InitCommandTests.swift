import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionTestSupport

@Suite(.timeLimit(.minutes(5))) struct InitCommandTests {
    @Test func initWritesAStarterWhoseScenarioPasses() throws {
        let folder = makeTemporaryFolder("init").appendingPathComponent("new project")
        let made = try runMotionscript(["init", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "")
        let files = ["drag.lua", "drag.events.jsonl", "drag.expected.jsonl", ".luarc.json", "types/motion.lua"]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file)")
        }
        let tested = try runMotionscript(["test", folder.path])
        #expect(tested.status == 0)
        #expect(tested.stdout.hasSuffix("1 passed, 0 failed, 1 skipped\n"), "\(tested.stdout)")
        let ran = try runMotionscript(["run", "drag.lua", "--events", "drag.events.jsonl"], in: folder)
        #expect(ran.status == 0)
        #expect(ran.stdout.split(separator: "\n").count == 7)
        #expect(ran.stdout.split(separator: "\n").last == #"{"t":0.564,"name":"box","value":{"x":136,"y":116}}"#)
    }

    @Test func theLuarcPointsLuaLSAtTheDefinitionsForLua54() throws {
        let folder = makeTemporaryFolder("init")
        _ = try Starter.write(into: folder.path)
        let data = try Data(contentsOf: folder.appendingPathComponent(".luarc.json"))
        let settings = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
        #expect(settings["workspace.library"] as? [String] == ["types"])
        let definitions = try String(contentsOf: folder.appendingPathComponent("types/motion.lua"), encoding: .utf8)
        #expect(definitions == LuaDefinitions.text)
    }

    @Test func initNeverOverwritesAndSaysWhy() throws {
        let folder = makeTemporaryFolder("init")
        let mine = "-- my work\n"
        try mine.write(to: folder.appendingPathComponent("drag.lua"), atomically: true, encoding: .utf8)
        let r = try runMotionscript(["init", folder.path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: not overwriting existing files: \(folder.path)/drag.lua\n"), "\(r.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("drag.lua"), encoding: .utf8) == mine)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".luarc.json").path))
    }

    /// Foundation's words were passed through: "The file doesn't exist" for a folder that
    /// exists, "NSCocoaErrorDomain error 512" for a folder path that is a file.
    @Test func initSaysInPlainWordsWhyItCannotWrite() throws {
        let proc = try runMotionscript(["init", "/proc/self"])
        #expect(proc.status == 2)
        #expect(proc.stderr == "error: cannot write into /proc/self: /proc/self does not take new files (is it a virtual file system such as /proc?)\n", "\(proc.stderr)")
        let folder = makeTemporaryFolder("init")
        let file = writeFile("x", "plain", in: folder)
        let intoFile = try runMotionscript(["init", file])
        #expect(intoFile.status == 2)
        #expect(intoFile.stderr == "error: cannot write into \(file): \(file) exists and is not a folder\n", "\(intoFile.stderr)")
        let below = try runMotionscript(["init", file + "/sub"])
        #expect(below.stderr == "error: cannot write into \(file)/sub: \(file) exists and is not a folder\n", "\(below.stderr)")
        for r in [proc, intoFile, below] { #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("doesn’t exist")) }
    }

    @Test func theNextStepQuotesThePathForTheShell() throws {
        let folder = makeTemporaryFolder("init").appendingPathComponent("my dir's")
        let r = try runMotionscript(["init", folder.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("next: cd '\(folder.path.replacingOccurrences(of: "'", with: #"'\''"#))' && motionscript run drag.lua --events drag.events.jsonl\n"), "\(r.stderr)")
        #expect(ShellQuote.quote("plain/dir-1.x") == "plain/dir-1.x")
        #expect(ShellQuote.quote("-n") == "./-n")
        #expect(ShellQuote.quote("a\nb") == #"$'a\nb'"#)
        #expect(ShellQuote.quote("bell\u{7}") == #"$'bell\x07'"#)
        #expect(ShellQuote.quote("") == "''")
    }
}
