import Foundation
import Testing
import MotionGestures
import MotionHost
import MotionInput
import MotionLua

/// Reloading without a watcher: the swap, the fallback, kept properties, the live hook.
@Suite struct ReloadingPipelineTests {
    let dragScript = """
        local box = motion.property({x = 100, y = 200}, {keep = "box"})
        motion.gesture(motion.pan{}):translation(box):subscribe(box)
        box:emit("box")
        """

    @Test func successfulReloadClosesTheOldVersionAndKeptPropertiesCarryOver() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile(dragScript, "drag.lua", in: folder)
        let events = writeFile(shortDragEvents, "drag.events.jsonl", in: folder)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(RunOptions(scriptPath: script, eventsPath: events), output: output)
        defer { pipeline.close() }
        let first = try pipeline.reload().get()
        try pipeline.replay(Runner.openEvents(path: events))
        // Threshold 10: (12,9) is 15 from the start, so the drag begins there.
        #expect(output.lines.last == #"{"t":0.032,"name":"box","value":{"x":120,"y":215}}"#)

        writeFile(dragScript.replacingOccurrences(of: #""box")"#, with: #""moved")"#), "drag.lua", in: folder)
        let second = try pipeline.reload().get()
        #expect(first.subscriptionCount == 0 && first.liveCallbacks == 0 && first.memoryUsed == 0)
        #expect(pipeline.runtime === second && pipeline.loads == 2)
        try pipeline.replay(Runner.openEvents(path: events))
        #expect(Array(output.lines.suffix(3)) == [
            // Issue 22: the events replay from the start, so the box does too (it drifted by the
            // drag at each reload: 120, then 140…); kept values are for live input.
            #"{"t":0,"name":"moved","value":{"x":100,"y":200}}"#,
            #"{"t":0.016,"name":"moved","value":{"x":112,"y":209}}"#,
            #"{"t":0.032,"name":"moved","value":{"x":120,"y":215}}"#,
        ])
    }

    /// On live input (no events file) a kept property carries over: the box stays where it was.
    @Test func liveReloadsCarryKeptProperties() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile(dragScript, "drag.lua", in: folder)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(RunOptions(scriptPath: script), output: output)
        defer { pipeline.close() }
        _ = try pipeline.reload().get()
        for (t, phase, x, y) in [(0.0, PointerPhase.down, 10.0, 10.0), (0.016, .move, 22, 19), (0.032, .move, 30, 25), (0.048, .up, 30, 25)] {
            try pipeline.handle(Frame(t: t, events: [PointerEvent(t: t, id: 1, phase: phase, x: x, y: y)]))
        }
        writeFile(dragScript.replacingOccurrences(of: #""box")"#, with: #""moved")"#), "drag.lua", in: folder)
        _ = try pipeline.reload().get()
        #expect(output.lines.last == #"{"t":0.048,"name":"moved","value":{"x":120,"y":215}}"#)  // setup at the reload time
    }

    @Test func failedReloadKeepsThePreviousVersionRunningUntouched() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile("motion.pointers():map(function(p) return p.x end):emit('x')\n", "s.lua", in: folder)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(RunOptions(scriptPath: script), output: output)
        defer { pipeline.close() }
        let running = try pipeline.reload().get()
        try pipeline.handle(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 5, y: 0)]))

        writeFile("motion.emit('half', 1)\nlocal x = nil + 1\n", "s.lua", in: folder)
        guard case .failure(let error) = pipeline.reload() else { Issue.record("expected a failure"); return }
        // Lua shortens long paths at the front: the name and line are what matter.
        #expect(error.message.contains("/s.lua:2: attempt to perform arithmetic on a nil value"))
        writeFile("motion.emit(\n", "s.lua", in: folder)
        guard case .failure(let syntax) = pipeline.reload() else { Issue.record("expected a failure"); return }
        #expect(syntax.kind == .syntax && syntax.message.contains("/s.lua:2:"))

        #expect(pipeline.runtime === running && pipeline.loads == 1 && pipeline.failedLoads == 2)
        try pipeline.handle(Frame(t: 0.5, events: [PointerEvent(t: 0.5, id: 1, phase: .move, x: 7, y: 0)]))
        // The failed version's setup wrote a line before raising: it is not output. The old
        // version goes on.
        #expect(output.lines == [#"{"t":0,"name":"x","value":5}"#, #"{"t":0.5,"name":"x","value":7}"#])
        #expect(running.subscriptionCount == 1)
    }

    /// A live source keeps reading while the script is replaced: every frame goes to exactly
    /// one version, and the finger down at the swap goes down for the new version where it is.
    @Test func framesAcrossASwapAreNeitherLostNorDoubled() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile("motion.pointers():map(function(p) return 'a' .. p.x end):emit('p')\n", "live.lua", in: folder)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(RunOptions(scriptPath: script), output: output)
        defer { pipeline.close() }
        try pipeline.reload().get()
        for x in 0..<6 {
            if x == 3 {
                writeFile("motion.pointers():map(function(p) return 'b' .. p.x end):emit('p')\n", "live.lua", in: folder)
                try pipeline.reload().get()
            }
            let t = Double(x) * 0.01
            try pipeline.handle(Frame(t: t, events: [PointerEvent(t: t, id: 1, phase: x == 0 ? .down : .move, x: Double(x), y: 0)]))
        }
        #expect(output.lines.map { $0.split(separator: "\"").dropLast().last! } == ["a0.0", "a1.0", "a2.0", "b2.0", "b3.0", "b4.0", "b5.0"])
    }

    @Test func watchedFilesAreTheScriptAndWhatItRequiredIncludingABrokenModule() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile("local h = require 'helper'\nmotion.emit('h', h)\n", "main.lua", in: folder)
        writeFile("return 1\n", "helper.lua", in: folder)
        let pipeline = ReloadingPipeline(RunOptions(scriptPath: script), output: CollectedOutput())
        defer { pipeline.close() }
        try pipeline.reload().get()
        #expect(pipeline.watchedFiles == [script, folder.path + "/helper.lua"])
        writeFile("local h = require 'helper'\nlocal b = require 'broken'\n", "main.lua", in: folder)
        writeFile("return {\n", "broken.lua", in: folder)
        #expect(throws: ScriptError.self) { try pipeline.reload().get() }
        #expect(pipeline.watchedFiles == [script, folder.path + "/helper.lua", folder.path + "/broken.lua"])
    }
}
