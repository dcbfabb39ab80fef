import Foundation
import Testing
import MotionTestSupport

@Suite(.timeLimit(.minutes(5))) struct ScriptArgumentsTests {
    @Test func argumentsAfterTheTerminatorReachTheScriptAsLuaGivesThem() throws {
        let folder = makeTemporaryFolder("args")
        let script = writeFile("""
            motion.emit("arg", {arg[0], arg[1], arg[2], arg[3], #arg})
            motion.emit("dots", {...})
            """, "args.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "e.jsonl", in: folder)
        let r = try runMotionscript(["run", script, "--events", events, "--", "a b", "--timeout", "-1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"t":0,"name":"arg","value":["\(script)","a b","--timeout","-1",3]}
            {"t":0,"name":"dots","value":["a b","--timeout","-1"]}

            """)
    }

    @Test func withoutArgumentsArgHoldsOnlyTheScript() throws {
        let folder = makeTemporaryFolder("args")
        let script = writeFile("motion.emit('n', #arg) motion.emit('zero', arg[0]) motion.emit('dots', select('#', ...))\n",
                               "args.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "e.jsonl", in: folder)
        let r = try runMotionscript(["run", script, "--events", events])
        #expect(r.stdout == """
            {"t":0,"name":"n","value":0}
            {"t":0,"name":"zero","value":"\(script)"}
            {"t":0,"name":"dots","value":0}

            """)
    }

    /// The parser handled terminator values in quadratic time (40,000 arguments: 39 s); split
    /// off before parsing they take milliseconds. The bound is 40 times what a linear split needs
    /// on a slow machine, and a tenth of what the quadratic parse took.
    @Test func fortyThousandArgumentsReachTheScriptQuickly() throws {
        let folder = makeTemporaryFolder("args")
        let script = writeFile("motion.emit('n', #arg) motion.emit('last', arg[#arg]) motion.emit('dots', select('#', ...))\n",
                               "args.lua", in: folder)
        let arguments = (1...40_000).map(String.init)
        let started = Date()
        let r = try runMotionscript(["run", script, "--"] + arguments)
        let seconds = Date().timeIntervalSince(started)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            {"t":0,"name":"n","value":40000}
            {"t":0,"name":"last","value":"40000"}
            {"t":0,"name":"dots","value":40000}

            """)
        #expect(seconds < 4, "40,000 script arguments took \(seconds) s")
    }

    @Test func plotTakesArgumentsAfterTheTerminatorToo() throws {
        let folder = makeTemporaryFolder("args")
        let script = writeFile("motion.emit('dots', {...})\n", "args.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "e.jsonl", in: folder)
        let svg = folder.appendingPathComponent("out.svg").path
        let r = try runMotionscript(["plot", script, "--events", events, "-o", svg, "--", "--events", "x"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: svg))
    }
}
