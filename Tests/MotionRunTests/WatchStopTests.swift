import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionLua
import MotionStreams
import MotionTestSupport

/// An output that asks for a stop once it has written `after` lines, as Ctrl-C would mid-replay.
private final class StoppingOutput: MotionOutput {
    var lines = 0
    let after: Int
    var stop: (() -> Void)?
    init(after: Int) { self.after = after }
    func emit(t: Double, name: String, value: MotionValue) {
        lines += 1
        if lines == after { stop?() }
    }
    func emit(t: Double, name: String, state: MotionState) {}
    func log(_ line: String) {}
}

@Suite struct WatchStopTests {
    @Test func stoppingDuringALongReplayEndsItWithinAFewHundredFrames() throws {
        let folder = makeTemporaryFolder("stop")
        let script = writeFile("motion.pointers():subscribe(function(p) motion.emit('x', p.x) end)\n", "main.lua", in: folder)
        var text = #"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n"
        for i in 1..<10_000 { text += #"{"t":\#(i),"id":1,"phase":"move","x":\#(i),"y":0}"# + "\n" }
        let events = writeFile(text, "main.events.jsonl", in: folder)
        let output = StoppingOutput(after: 300)
        let session = try WatchSession(RunOptions(scriptPath: script, eventsPath: events), output: output) { _ in }
        output.stop = { session.stop() }
        try session.run()
        // Checked every 256 frames: the replay ends at frame 512, not 10,000.
        #expect(output.lines == 512)
    }
}
