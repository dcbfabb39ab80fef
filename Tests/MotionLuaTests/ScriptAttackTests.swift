import Foundation
import Testing
import CLuaShim
import MotionGestures
@testable import MotionLua

/// Scripts written to crash, hang or outgrow the host: each ends in a Lua error at its line.
@Suite struct ScriptAttackTests {
    @Test(arguments: [
        ("getmetatable(motion.screen).__gc(io.stdout)", "bad argument #1 to '__gc' (motion.Element expected, got userdata)"),
        ("getmetatable(motion.property(0)).__gc(motion.screen)", "bad argument #1 to '__gc' (motion.Property expected, got userdata)"),
        ("getmetatable(motion.screen).__index(io.stdout, 'x')", "bad argument #1 to '__index' (element expected, got userdata)"),
        ("getmetatable(motion.pan{}).__newindex(io.stdout, 'enabled', true)", "bad argument #1 to '__newindex' (recognizer expected, got userdata)"),
    ])
    func metamethodsGivenAForeignUserdataRaise(source: String, message: String) throws {
        let error = try #require(setupError(source))
        #expect(error.message.contains("script.lua:1: \(message)"), "\(error.message)")
    }

    @Test func gestureMetamethodsGivenAForeignUserdataRaise() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):subscribe(function(g)
                local mt = getmetatable(g)
                motion.emit("index", select(2, pcall(mt.__index, io.stdout, "state")))
                motion.emit("tostring", select(2, pcall(mt.__tostring, motion.screen)))
                motion.emit("gc", select(2, pcall(getmetatable(motion.screen).__gc, g)))
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        #expect(output.lines.count == 3)
        #expect(output.lines[0].contains("bad argument #1 to '__index' (gesture value expected, got userdata)"))
        #expect(output.lines[1].contains("bad argument #1 to '__tostring' (gesture value expected, got userdata)"))
        #expect(output.lines[2].contains("bad argument #1 to '__gc' (motion.Element expected, got userdata)"))
    }

    @Test func onlyTextChunksLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("motionscript-chunks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = "return string.dump(function() return 42 end)"
        let script = writeScript("""
            local chunk = (load("\(binary)"))()
            local f = io.open("\(folder.path)/bin.lua", "wb") f:write(chunk) f:close()
            motion.emit("load", select(2, load(chunk)))
            motion.emit("loadb", select(2, load(chunk, "c", "b")))
            motion.emit("loadfile", select(2, loadfile("\(folder.path)/bin.lua", "b")))
            motion.emit("dofile", select(2, pcall(dofile, "\(folder.path)/bin.lua")))
            package.path = "\(folder.path)/?.lua"
            motion.emit("require", select(2, pcall(require, "bin")))
            motion.emit("text", load("return 1 + 1")())
            """, in: folder)
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: script, output: output)
        defer { runtime.close() }
        try runtime.load()
        #expect(output.lines.count == 6)
        for line in output.lines.prefix(5) {
            #expect(line.contains("attempt to load a binary chunk (mode is 't')"), "\(line)")
        }
        #expect(output.lines[4].contains("error loading module 'bin'"))
        #expect(output.lines[5] == "0 text 2")
        // The script file itself (bin.lua is a binary chunk now).
        let binaryScript = try LuaRuntime(scriptPath: folder.appendingPathComponent("bin.lua").path, output: TestOutput())
        defer { binaryScript.close() }
        let error = try #require(throws: ScriptError.self) { try binaryScript.load() }
        #expect(error.message.contains("attempt to load a binary chunk (mode is 't')"))
    }

    @Test func chainsPastTheBoundAreAClearErrorAndChainsWithinItRun() throws {
        for source in ["local s = motion.property(0) for i = 1, 8000 do s = s:offset(0) end",
                       "local s = motion.property(0) for i = 1, 8000 do s = s:merge(motion.property(1)) end"] {
            let error = try #require(setupError(source))
            #expect(error.message.contains("script.lua:1:"))
            #expect(error.message.contains("a chain of more than 1000 stream operators is too deep"), "\(error.message)")
        }
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            local s = p
            for i = 1, 999 do s = s:offset(1) end
            s:emit("x")
            s:subscribe(function(v) end)
            p:write(1)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 x 999", "0 x 1000"])
    }

    @Test func aStreamMergedWithItselfCannotConnectBillionsOfOperators() throws {
        let error = try #require(setupError("local s = motion.property(0)\nfor i = 1, 40 do s = s:merge(s) end"))
        #expect(error.message.contains("script.lua:2: merge: this stream would connect more than 100000 operators"))
    }

    @Test func aLongRequireToFailChainIsAClearError() throws {
        let error = try #require(setupError("""
            local a = motion.tap{}
            for i = 1, 20000 do local b = motion.tap{} b:requireToFail(a) a = b end
            """))
        #expect(error.message.contains("script.lua:2: requireToFail: more than 256 require-to-fail relations in one script"))
        let viaOption = try #require(setupError("""
            local a = motion.tap{}
            for i = 1, 300 do a = motion.tap{requireToFail = a} end
            """))
        #expect(viaOption.message.contains("script.lua:2: motion.tap: more than 256 require-to-fail relations"))
    }

    @Test func propertiesFeedingEachOtherThroughLongChainsStopBeforeTheStackRunsOut() throws {
        // 190 stages of 998 operators, each stage writing the next property from a callback.
        let error = try #require(setupError("""
            local first = motion.property(0)
            local p = first
            for k = 1, 190 do
              local q = motion.property(0)
              local x = p
              for i = 1, 998 do x = x:offset(0) end
              x:subscribe(function(v) q:write(v) end)
              p = q
            end
            first:write(5)
            """))
        #expect(error.message.contains("the pipeline is nested too deeply"), "\(error.message.prefix(300))")
    }

    @Test func swiftAllocationsForAScriptCountAgainstItsMemoryLimit() throws {
        let limit = 50 << 20
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local t = {}
            for i = 1, 10000 do t[i] = i end
            local p = motion.property(t)
            local keep = {}
            for i = 1, 100000 do keep[i] = p:read() end
            """), output: TestOutput(), memoryLimit: limit)
        defer { runtime.close() }
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(runtime.pendingError?.kind == .memory)
        #expect(runtime.pendingError?.message.contains("not enough memory") == true)
        // At most one p:read() (a 10,000-element table, well under 1 MB) past the limit.
        #expect(runtime.memoryUsed < limit + (1 << 20), "\(runtime.memoryUsed)")
    }

    @Test func aValueTooLargeForTheMemoryLimitIsNotCopied() throws {
        let error = try #require(setupError("""
            local s = string.rep("x", 10 << 20)
            motion.emit("x", {s, s, s, s, s, s})
            """, memoryLimit: 64 << 20))
        #expect(error.kind == .memory)
        #expect(error.message.contains("script.lua:2:"))
        #expect(error.message.contains("not enough memory"))
    }

    @Test(arguments: ["keep[i] = p:offset(1)", "p:subscribe(function() end)"])
    func theSwiftSideOfStreamsAndSubscriptionsCountsAgainstTheLimit(make: String) throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            local keep, made = {}, 0
            local ok, err = pcall(function()
              for i = 1, 3000000 do \(make) made = i end
            end)
            keep = nil
            collectgarbage()
            motion.emit("made", made)
            motion.emit("error", err)
            """, memoryLimit: 16 << 20)
        defer { runtime.close() }
        // 16 MiB at 512 bytes of Swift each is 32,768; without the charge it was about 250,000.
        let made = Int(output.lines[0].split(separator: " ").last!)!
        #expect(made > 1000 && made < 32_768, "\(made)")
        #expect(output.lines[1].contains("not enough memory"))
    }
}

/// With `debug` (trusted scripts) the registry can get a metatable whose `__index` raises: the
/// bindings look nothing up by name there, so nothing raises inside Swift (docs/reliability.md, "The Lua seam").
@Suite struct RegistryMetatableTests {
    @Test func aRaisingRegistryMetatableDoesNotReachTheBindings() throws {
        let (runtime, output) = try loadedRuntime("""
            local registry = debug.getregistry()
            for _, name in ipairs{"motion.Stream", "motion.Property", "motion.Recognizer",
                                  "motion.Subscription", "motion.Element", "motion.Gesture", "FILE*"} do
              registry[name] = nil
            end
            debug.setmetatable(registry, {__index = function(_, k) error("registry lookup of " .. tostring(k)) end})
            local p = motion.property(1)
            local seen = {}
            local sub = p:map(function(x) return x * 2 end):subscribe(function(v) seen[#seen + 1] = v end)
            p:write(5)
            sub:unsubscribe()
            local pan = motion.pan{}
            motion.gesture(pan):subscribe(function(g) motion.emit("g", {g.state, g.pointers}) end)
            motion.emit("seen", seen)
            motion.emit("screen", motion.screen.width == math.huge)
            """, memoryLimit: 64 << 20)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.1, (1, .move, 50, 0)))
        #expect(runtime.pendingError == nil)
        #expect(output.lines.contains("0 seen [2,10]"))
        #expect(output.lines.contains("0 screen true"))
        #expect(output.lines.contains("0.1 g [\"began\",1]"))
    }
}
