import Foundation
import Testing
@testable import MotionLua

/// What hot reload needs from a runtime: kept property values and the files `require` read.
@Suite struct KeepAndRequireTests {
    @Test func keptPropertyStartsFromTheInheritedValueOthersFromTheirInitial() throws {
        let script = writeScript("""
            local box = motion.property({x = 1, y = 2}, {keep = "box"})
            local count = motion.property(0)
            box:emit("box")
            count:emit("count")
            """)
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: script, output: output)
        defer { runtime.close() }
        runtime.inheritedValues = ["box": .object([("x", .number(30)), ("y", .number(40))]), "count": .number(9)]
        try runtime.load()
        #expect(output.lines == [#"0 box {"x":30,"y":40}"#, "0 count 0"])
        #expect(runtime.keptValues == ["box": .object([("x", .number(30)), ("y", .number(40))])])
    }

    @Test func keptValuesFollowWritesAndSurviveClose() throws {
        let (runtime, _) = try loadedRuntime("""
            local p = motion.property(5, {keep = "p"})
            p:write(7)
            """)
        #expect(runtime.keptValues == ["p": .number(7)])
        runtime.close()
        #expect(runtime.keptValues == ["p": .number(7)])
    }

    @Test(arguments: [
        ("motion.property(0, {keap = 'x'})", "script.lua:1: motion.property: unknown option 'keap' (known: keep)"),
        ("motion.property(0, {keep = 3})", "script.lua:1: motion.property: option 'keep' must be a non-empty string, got number"),
        ("motion.property(0, 'x')", "script.lua:1: bad argument #2 to 'motion.property' (table of options expected, got string)"),
        ("motion.property(0, {keep = 'a'})\nmotion.property(1, {keep = 'a'})",
         "script.lua:2: motion.property: keep name 'a' is already used by another property"),
    ])
    func badPropertyOptionsAreErrorsNamingThem(source: String, message: String) throws {
        let runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput())
        defer { runtime.close() }
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(runtime.pendingError?.message.contains("/" + message) == true, "\(runtime.pendingError?.message ?? "")")
    }

    @Test func requiredFilesListsEveryModuleFileRequireFoundOnce() throws {
        let script = writeScript("""
            local a = require "helper"
            local b = require "helper"
            local m = require "motion"
            local ok = pcall(require, "broken")
            local missing = pcall(require, "nowhere")
            """)
        let folder = URL(fileURLWithPath: script).deletingLastPathComponent()
        _ = writeScript("return require('sub.inner')\n", name: "helper.lua", in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        _ = writeScript("return 1\n", name: "sub/inner.lua", in: folder)
        _ = writeScript("return {\n", name: "broken.lua", in: folder)
        let runtime = try LuaRuntime(scriptPath: script, output: TestOutput())
        try runtime.load()
        let dir = folder.path
        #expect(runtime.requiredFiles == ["\(dir)/helper.lua", "\(dir)/sub/inner.lua", "\(dir)/broken.lua"])
        runtime.close()
        #expect(runtime.requiredFiles.count == 3)
    }
}
