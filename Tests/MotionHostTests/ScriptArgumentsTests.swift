import Foundation
import Testing

@Suite struct ScriptArgumentsTests {
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
}
