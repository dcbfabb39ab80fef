import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
import MotionStreams
import MotionTestSupport

/// Counts lines, and edits the script once after `after` of them (a save during a long replay).
private final class EditingOutput: MotionOutput, ReloadMarking {
    var names: [String] = []
    var marks: [String] = []
    let after: Int
    var edit: (() -> Void)?
    init(after: Int) { self.after = after }
    func emit(t: Double, name: String, value: MotionValue) {
        names.append(name)
        if names.count == after { edit?(); edit = nil }
    }
    func emit(t: Double, name: String, state: MotionState) {}
    func log(_ line: String) {}
    func markReload(t: Double, script: String, version: Int) { marks.append("\(t) \(script) \(version)") }
}

@Suite(.timeLimit(.minutes(5))) struct ReloadKeepsFingersTests {
    /// A drag in progress at a reload goes on in the new version: it sees the finger go down where
    /// it is at the reload time, then its moves; input time goes on (setup and motion.time()).
    @Test func theNewVersionGetsTheFingersDownAndInputTimeGoesOn() throws {
        let folder = makeTemporaryFolder("fingers")
        let script = writeFile("motion.pointers():subscribe(function(p) motion.emit('v1', p.phase) end)\n", "drag.lua", in: folder)
        var frames = [Frame(t: 0, events: [PointerEvent(t: 0, id: 3, phase: .down, x: 10, y: 20)])]
        for i in 1...3 {
            frames.append(Frame(t: Double(i), events: [PointerEvent(t: Double(i), id: 3, phase: .move, x: 10 + Double(i), y: 20)]))
        }
        frames.append(Frame(t: 4, events: [PointerEvent(t: 4, id: 3, phase: .up, x: 13, y: 20)]))
        let source = EditingLiveSource(frames: frames, editAfter: 1) {
            _ = writeFile("""
                motion.emit('setup', motion.time())
                motion.pointers():subscribe(function(p) motion.emit('v2', p.phase .. ' ' .. p.x .. ' ' .. motion.time()) end)
                """, "drag.lua", in: folder, byRename: true)
        }
        let output = CollectedOutput()
        var diagnostics: [String] = []
        // The quiet time on input time: saved at 1, reloaded after the frame at 2.
        let session = try WatchSession(RunOptions(scriptPath: script), watch: WatchOptions(clock: { source.inputTimeNow() ?? 0 }),
                                       output: output) { diagnostics.append($0) }
        #expect(try session.runLive(source) == "end of input")
        #expect(output.lines == [
            #"{"t":0,"name":"v1","value":"down"}"#, #"{"t":1,"name":"v1","value":"move"}"#,
            #"{"t":2,"name":"v1","value":"move"}"#,
            #"{"t":2,"reload":"drag.lua","version":2}"#,
            #"{"t":2,"name":"setup","value":2}"#,
            #"{"t":2,"name":"v2","value":"down 12.0 2.0"}"#,
            #"{"t":3,"name":"v2","value":"move 13.0 3.0"}"#,
            #"{"t":4,"name":"v2","value":"up 13.0 4.0"}"#,
        ])
        #expect(diagnostics == ["-- reloaded drag.lua --"])
    }

    /// After a version stopped at an error (replaying --events), a version that does not load
    /// must not claim that the previous one keeps running.
    @Test func aFailedLoadAfterAnErrorSaysNothingRuns() throws {
        let folder = makeTemporaryFolder("truth")
        let script = writeFile("motion.pointers():subscribe(function(p) error('boom') end)\n", "s.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":0}"# + "\n", "s.events.jsonl", in: folder)
        let diagnostics = DiagnosticLines()
        let session = try WatchSession(RunOptions(scriptPath: script, eventsPath: events),
                                       watch: WatchOptions(debounce: 0.05, maxReloads: 1),
                                       output: CollectedOutput()) { diagnostics.append($0) }
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        session.onWaiting = { waiting.signal() }
        let running = Shared(session)
        Thread {
            try? running.value.run()
            done.signal()
        }.start()
        #expect(waiting.wait(timeout: .now() + 10) == .success)
        _ = writeFile("this is not lua\n", "s.lua", in: folder, byRename: true)
        if done.wait(timeout: .now() + 10) != .success {
            session.stop()
            _ = done.wait(timeout: .now() + 10)
        }
        let lines = diagnostics.lines
        #expect(lines.count == 4)
        #expect(lines.first?.contains("s.lua:1: boom") == true)
        #expect(lines.dropFirst().first == "-- waiting for s.lua to change --")
        #expect(lines.last == "-- s.lua did not load, and the previous version stopped at an error: nothing runs; waiting for s.lua to change --")
    }

    /// With --events, a save during a long replay cuts it short (checked every 256 frames) and
    /// the new version replays.
    @Test func aSaveDuringALongReplayCutsItShort() throws {
        let folder = makeTemporaryFolder("cut")
        let script = writeFile("motion.pointers():subscribe(function(p) motion.emit('x', p.x) end)\n", "main.lua", in: folder)
        var text = #"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n"
        for i in 1..<10_000 { text += #"{"t":\#(i),"id":1,"phase":"move","x":\#(i),"y":0}"# + "\n" }
        let events = writeFile(text, "main.events.jsonl", in: folder)
        let output = EditingOutput(after: 300)
        output.edit = { _ = writeFile("motion.pointers():subscribe(function(p) motion.emit('y', p.x) end)\n", "main.lua", in: folder, byRename: true) }
        var diagnostics: [String] = []
        let session = try WatchSession(RunOptions(scriptPath: script, eventsPath: events),
                                       watch: WatchOptions(debounce: 0.05, maxReloads: 1), output: output) { diagnostics.append($0) }
        try session.run()
        #expect(output.names.filter { $0 == "x" }.count == 512)
        #expect(output.names.filter { $0 == "y" }.count == 10_001)  // every frame, and the final cancel
        #expect(output.marks == ["0.0 main.lua 2"])
        #expect(diagnostics == ["-- main.lua changed: replay cut short --", "-- reloaded main.lua, replaying events --"])
    }
}

/// A source that delivers its frames, then calls `onIdle` once and waits (on its event loop)
/// until stopped.
private final class IdleSource: LiveFrameSource {
    let frames: [Frame]
    var index = 0
    var stopped = false
    var onIdle: (() -> Void)?
    /// Where the session's file watcher registers (its stop pipe too): waited on when idle.
    let eventLoop: EventLoop? = try! EventLoop()
    init(frames: [Frame]) { self.frames = frames }
    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        if stopped { return .end("stopped") }
        if index < frames.count {
            index += 1
            return .frame(frames[index - 1])
        }
        onIdle?()
        onIdle = nil
        _ = try eventLoop?.wait(seconds: 5)
        return .timeout
    }
    func stop() { stopped = true }
    func inputTimeNow() -> Double? { frames.first?.t }
}

@Suite(.timeLimit(.minutes(5))) struct WatchLiveStopTests {
    /// Ctrl-C during `run --watch --device` ends input as without --watch: what is scheduled settles.
    @Test func stoppingAWatchedLiveRunSettlesScheduledWork() throws {
        let folder = makeTemporaryFolder("watchstop")
        let script = writeFile("motion.pointers():delay(0.5):map(function(p) return p.phase end):emit('late')\n", "s.lua", in: folder)
        let source = IdleSource(frames: [Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)])])
        let output = CollectedOutput()
        let session = try WatchSession(RunOptions(scriptPath: script), output: output) { _ in }
        source.onIdle = { session.stop() }
        #expect(try session.runLive(source) == "stopped")
        #expect(output.lines == [#"{"t":0.5,"name":"late","value":"down"}"#])
    }
}
