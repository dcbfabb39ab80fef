import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput

@Suite struct LiveWatchTests {
    @Test func aReloadBetweenLiveFramesLosesAndDoublesNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livewatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("count.lua")
        let version = { (v: Int) in
            "motion.pointers():subscribe(function(p) motion.emit(\"v\(v)\", p.x) end)\n"
        }
        try version(1).write(to: script, atomically: true, encoding: .utf8)
        var frames = [Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)])]
        for i in 1...5 { frames.append(Frame(t: Double(i), events: [PointerEvent(t: Double(i), id: 1, phase: .move, x: Double(i), y: 0)])) }
        // Saved by rename-and-replace, as editors do.
        let source = EditingLiveSource(frames: frames, editAfter: 2) {
            try! version(2).write(to: script, atomically: true, encoding: .utf8)
        }
        let output = CollectedOutput()
        var diagnostics: [String] = []
        // The quiet time on input time, as the frames give it (one frame a second).
        let session = try WatchSession(RunOptions(scriptPath: script.path), watch: WatchOptions(clock: { source.inputTimeNow() ?? 0 }),
                                       output: output) { diagnostics.append($0) }
        let reason = try session.runLive(source)
        #expect(reason == "end of input")
        #expect(output.lines == [
            #"{"t":0,"name":"v1","value":0}"#, #"{"t":1,"name":"v1","value":1}"#, #"{"t":2,"name":"v1","value":2}"#,
            // Saved at input time 2: the frame within the quiet time goes to v1 (input is not
            // held), the reload comes after it.
            #"{"t":3,"name":"v1","value":3}"#,
            // The finger down at the reload goes down for v2 where it is, at the reload time.
            #"{"t":3,"reload":"count.lua","version":2}"#, #"{"t":3,"name":"v2","value":3}"#,
            #"{"t":4,"name":"v2","value":4}"#, #"{"t":5,"name":"v2","value":5}"#,
        ])
        #expect(diagnostics == ["-- reloaded count.lua --"])
    }
}
