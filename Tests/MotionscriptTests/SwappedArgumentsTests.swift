import Foundation
import Testing
import MotionTestSupport

/// The script and the event file swapped: Lua reported a syntax error at the event file's
/// first `{` and the reader a malformed line in the script. A usage error says what happened.
@Suite(.timeLimit(.minutes(5))) struct SwappedArgumentsTests {
    @Test func eventsGivenAScriptAndAScriptThatIsAnEventFileGetAHint() throws {
        let folder = makeTemporaryFolder("swap")
        writeFile("motion.emit('a', 1)\n", "drag.lua", in: folder)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "drag.events.jsonl", in: folder)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n", "renamed.txt", in: folder)
        let swapped = try runMotionscript(["run", "drag.events.jsonl", "--events", "drag.lua"], in: folder)
        #expect(swapped.status == 2)
        #expect(swapped.stderr.hasPrefix("error: --events drag.lua is a Lua script: the script comes first and the event file after --events (motionscript run SCRIPT.lua --events FILE)\n"), "\(swapped.stderr)")
        let scriptIsEvents = try runMotionscript(["run", "renamed.txt"], in: folder)
        #expect(scriptIsEvents.status == 2)
        #expect(scriptIsEvents.stderr.hasPrefix("error: renamed.txt looks like an event file (JSON Lines), not a Lua script: the script comes first (motionscript run SCRIPT.lua --events renamed.txt)\n"), "\(scriptIsEvents.stderr)")
        // An evemu recording given as the script: a header of our own, so no fixture is needed.
        writeFile("# EVEMU 1.3\nN: pad\nI: 0018 06cb cd48 0100\n", "pad.evemu", in: folder)
        let evemu = try runMotionscript(["run", "pad.evemu"], in: folder)
        #expect(evemu.status == 2)
        #expect(evemu.stderr.contains("looks like an event file (an evemu recording)"), "\(evemu.stderr)")
        // The right order still runs.
        let right = try runMotionscript(["run", "drag.lua", "--events", "drag.events.jsonl"], in: folder)
        #expect(right.status == 0 && right.stdout == #"{"t":0,"name":"a","value":1}"# + "\n")
    }
}
