import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionTestSupport

/// A live source whose user rests before the last frame: the wait is real, not scripted.
private final class RestingSource: LiveFrameSource {
    let frames: [Frame]
    let rest: useconds_t
    var index = 0

    init(frames: [Frame], rest: useconds_t) {
        self.frames = frames
        self.rest = rest
    }

    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        guard index < frames.count else { return .end("end of input") }
        if index == frames.count - 1 { usleep(rest) }
        index += 1
        return .frame(frames[index - 1])
    }

    func inputTimeNow() -> Double? { index > 0 ? frames[index - 1].t : nil }
    func stop() { index = frames.count }
}

/// `run --watch --device --timeout S`: the time limit bounds each frame's work, never the wait
/// for input (before, it bounded each step of the loop, its wait included: a user resting
/// longer than the limit stopped the script at the next touch — and the watchdog ended the
/// process 2 s later with "blocked outside Lua").
@Suite(.timeLimit(.minutes(5))) struct WatchLiveTimeLimitTests {
    @Test func restingLongerThanTheTimeLimitStopsNothing() throws {
        let folder = makeTemporaryFolder("watch-limit")
        // Each frame's callback runs long enough for the time limit's hook to look (a loop of
        // 20,000 steps: well under a millisecond of the 0.2 s limit).
        let script = writeFile("""
            motion.pointers():subscribe(function(p)
              local s = 0
              for i = 1, 20000 do s = s + i end
              motion.emit("p", p.x)
            end)
            """, "w.lua", in: folder)
        let frames = [0.0, 1.0].map { t in Frame(t: t, events: [PointerEvent(t: t, id: 1, phase: t == 0 ? .down : .up, x: t, y: 0)]) }
        let output = CollectedOutput()
        var diagnostics: [String] = []
        let session = try WatchSession(RunOptions(scriptPath: script, timeout: 0.2), output: output) { diagnostics.append($0) }
        #expect(try session.runLive(RestingSource(frames: frames, rest: 400_000)) == "end of input")
        #expect(output.lines == [#"{"t":0,"name":"p","value":0}"#, #"{"t":1,"name":"p","value":1}"#])
        #expect(diagnostics == [])
    }
}
