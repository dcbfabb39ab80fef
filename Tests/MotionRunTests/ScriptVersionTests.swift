import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
import MotionTestSupport

/// A script's versions through `run --watch`'s own host (`WatchSession.host`, the plugin host's
/// one plugin): the swap, the fallback, kept properties, the files watched. Replays and frames go
/// through `OneScript`, as the session's replay and the live loop feed it.
@Suite(.timeLimit(.minutes(5))) struct ScriptVersionTests {
    let dragScript = """
        local box = motion.property({x = 100, y = 200}, {keep = "box"})
        motion.gesture(motion.pan{}):translation(box):subscribe(box)
        box:emit("box")
        """

    /// The session's replay: every version replays the events from the start.
    private func replay(_ session: WatchSession, _ events: String) throws {
        try Replay.feed(Replay.openEvents(path: events), to: OneScript(session.host), timeout: 0)
    }

    @Test func successfulReloadClosesTheOldVersionAndKeptPropertiesCarryOver() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile(dragScript, "drag.lua", in: folder)
        let events = writeFile(shortDragEvents, "drag.events.jsonl", in: folder)
        let output = CollectedOutput()
        let session = try WatchSession(RunOptions(scriptPath: script, eventsPath: events), output: output) { _ in }
        defer { session.host.close() }
        #expect(session.host.reloadScript() == nil)
        let first = try #require(session.host.scriptRuntime)
        try replay(session, events)
        // Threshold 10: (12,9) is 15 from the start, so the drag begins there.
        #expect(output.lines.last == #"{"t":0.032,"name":"box","value":{"x":120,"y":215}}"#)

        writeFile(dragScript.replacingOccurrences(of: #""box")"#, with: #""moved")"#), "drag.lua", in: folder)
        #expect(session.host.reloadScript() == nil)
        #expect(first.subscriptionCount == 0 && first.liveCallbacks == 0 && first.memoryUsed == 0)
        #expect(session.host.scriptRuntime !== first && session.pipeline.loads == 2)
        try replay(session, events)
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
        let frames = [(0.0, PointerPhase.down, 10.0, 10.0), (0.016, .move, 22, 19), (0.032, .move, 30, 25), (0.048, .up, 30, 25)].map {
            Frame(t: $0.0, events: [PointerEvent(t: $0.0, id: 1, phase: $0.1, x: $0.2, y: $0.3)])
        } + [Frame(t: 0.2, events: [])]  // past the quiet time: the reload comes after it
        let source = EditingLiveSource(frames: frames, editAfter: 3) {
            _ = writeFile(self.dragScript.replacingOccurrences(of: #""box")"#, with: #""moved")"#), "drag.lua", in: folder)
        }
        let output = CollectedOutput()
        let session = try WatchSession(RunOptions(scriptPath: script), watch: WatchOptions(clock: { source.inputTimeNow() ?? 0 }),
                                       output: output) { _ in }
        #expect(try session.runLive(source) == "end of input")
        // The new version's setup at the reload time, the box where the old version left it.
        #expect(output.lines.last == #"{"t":0.2,"name":"moved","value":{"x":120,"y":215}}"#)
    }

    @Test func failedReloadKeepsThePreviousVersionRunningUntouched() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile("motion.pointers():map(function(p) return p.x end):emit('x')\n", "s.lua", in: folder)
        let output = CollectedOutput()
        let session = try WatchSession(RunOptions(scriptPath: script), output: output) { _ in }
        defer { session.host.close() }
        let live = OneScript(session.host, live: true)
        #expect(session.host.reloadScript() == nil)
        let running = try #require(session.host.scriptRuntime)
        try live.handle(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 5, y: 0)]))

        writeFile("motion.emit('half', 1)\nlocal x = nil + 1\n", "s.lua", in: folder)
        let error = try #require(session.host.reloadScript())
        // Lua shortens long paths at the front: the name and line are what matter.
        #expect(error.message.contains("/s.lua:2: attempt to perform arithmetic on a nil value"))
        writeFile("motion.emit(\n", "s.lua", in: folder)
        let syntax = try #require(session.host.reloadScript())
        #expect(syntax.kind == .syntax && syntax.message.contains("/s.lua:2:"))

        #expect(session.host.scriptRuntime === running && session.pipeline.loads == 1 && session.pipeline.failedLoads == 2)
        try live.handle(Frame(t: 0.5, events: [PointerEvent(t: 0.5, id: 1, phase: .move, x: 7, y: 0)]))
        // The failed version's setup wrote a line before raising: it is not output. The old
        // version goes on.
        #expect(output.lines == [#"{"t":0,"name":"x","value":5}"#, #"{"t":0.5,"name":"x","value":7}"#])
        #expect(running.subscriptionCount == 1)
    }

    @Test func watchedFilesAreTheScriptAndWhatItRequiredIncludingABrokenModule() throws {
        let folder = makeTemporaryFolder()
        let script = writeFile("local h = require 'helper'\nmotion.emit('h', h)\n", "main.lua", in: folder)
        writeFile("return 1\n", "helper.lua", in: folder)
        let session = try WatchSession(RunOptions(scriptPath: script), output: CollectedOutput()) { _ in }
        defer { session.host.close() }
        #expect(session.host.reloadScript() == nil)
        #expect(session.pipeline.watchedFiles == [script, folder.path + "/helper.lua"])
        writeFile("local h = require 'helper'\nlocal b = require 'broken'\n", "main.lua", in: folder)
        writeFile("return {\n", "broken.lua", in: folder)
        #expect(session.host.reloadScript() != nil)
        #expect(session.pipeline.watchedFiles == [script, folder.path + "/helper.lua", folder.path + "/broken.lua"])
    }
}
