import Foundation
import Testing
import MotionTestSupport

/// A scenario runs in its own folder: its working directory (relative `io.open`, `dofile`) and
/// `require` root are that folder, so `test DIR` and `cd DIR && test .` agree. It may name the
/// script it runs in a sidecar `NAME.script` (`../my-config.lua`): the real configuration is
/// tested, not a copy of it.
@Suite(.timeLimit(.minutes(5))) struct ScenarioFolderTests {
    private let down = #"{"t":0,"id":1,"phase":"down","x":1,"y":2}"# + "\n"

    @Test func testDIRAndCdDIRAgree() throws {
        let root = makeTemporaryFolder("scenfolder")
        let scen = root.appendingPathComponent("scen")
        try FileManager.default.createDirectory(at: scen.appendingPathComponent("lib"), withIntermediateDirectories: true)
        writeFile("return {answer = 42}\n", "lib/util.lua", in: scen)
        writeFile("return 'dofile'\n", "helper.lua", in: scen)
        writeFile("from a file\n", "table.txt", in: scen)
        writeFile("""
            local util = require "lib.util"
            local f = assert(io.open("table.txt"))
            motion.emit("read", f:read("l"))
            f:close()
            motion.emit("util", util.answer)
            motion.emit("dofile", dofile("helper.lua"))

            """, "x.lua", in: scen)
        writeFile(down, "x.events.jsonl", in: scen)
        writeFile("""
            {"t":0,"name":"read","value":"from a file"}
            {"t":0,"name":"util","value":42}
            {"t":0,"name":"dofile","value":"dofile"}

            """, "x.expected.jsonl", in: scen)
        let fromRoot = try runMotionscript(["test", "scen"], in: root)
        let inside = try runMotionscript(["test", "."], in: scen)
        #expect(fromRoot.status == 0, "\(fromRoot.stdout)")
        #expect(inside.status == 0, "\(inside.stdout)")
        #expect(fromRoot.stdout.contains("ok      x\n") && fromRoot.stdout.hasSuffix("1 passed, 0 failed, 2 skipped\n"), "\(fromRoot.stdout)")
        #expect(inside.stdout == fromRoot.stdout)
    }

    @Test func aSidecarNamesTheScriptTheScenarioRuns() throws {
        let root = makeTemporaryFolder("scenfolder")
        writeFile("""
            local keys = require "keys"
            motion.pointers():subscribe(function(p) if keys[p.phase] then motion.keys(keys[p.phase]) end end)

            """, "my-config.lua", in: root)
        writeFile("return {down = 'super+Left'}\n", "keys.lua", in: root)
        let scen = root.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: scen, withIntermediateDirectories: true)
        writeFile("../my-config.lua\n", "left.script", in: scen)
        writeFile(down, "left.events.jsonl", in: scen)
        writeFile(#"{"t":0,"action":"keys","keys":"super+Left"}"# + "\n", "left.expected.jsonl", in: scen)
        let r = try runMotionscript(["test", "tests"], in: root)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout == "ok      left\n1 passed, 0 failed\n", "\(r.stdout)")
        // Named directly, too.
        let direct = try runMotionscript(["test", "tests/left.script"], in: root)
        #expect(direct.stdout == "ok      left\n1 passed, 0 failed\n", "\(direct.stdout)")
        // The configuration changes: the scenario sees it.
        writeFile("return {down = 'super+Right'}\n", "keys.lua", in: root)
        let changed = try runMotionscript(["test", "."], in: scen)
        #expect(changed.status == 1)
        #expect(changed.stdout.hasPrefix("FAIL    left: output line 1 differs"), "\(changed.stdout)")
        // A sidecar naming nothing that exists is an error, not a skip.
        writeFile("../gone.lua\n", "gone.script", in: scen)
        writeFile(down, "gone.events.jsonl", in: scen)
        let gone = try runMotionscript(["test", "--filter", "gone", "tests"], in: root)
        #expect(gone.status == 1)
        #expect(gone.stdout.hasPrefix("FAIL    gone: gone.script names ../gone.lua, which is not a file"), "\(gone.stdout)")
    }
}
