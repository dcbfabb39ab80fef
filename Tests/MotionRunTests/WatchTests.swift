import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionLua
import MotionTestSupport

/// The watcher and the `run --watch` session, against real files and inotify.
@Suite(.timeLimit(.minutes(5))) struct FileWatcherTests {
    @Test func renameOverTheFileInPlaceWriteAndBurstsAreOneChangeEach() throws {
        let folder = makeTemporaryFolder("watch")
        let script = writeFile("-- 1\n", "a.lua", in: folder)
        let watcher = try FileWatcher(files: [script])
        // Rename-and-replace, as editors save: the watched inode goes away.
        writeFile("-- 2\n", "a.lua", in: folder, byRename: true)
        #expect(watcher.wait(debounce: 0.05, timeout: 5) == .changed([script]))
        // A burst of writes within the quiet period: one change.
        for i in 3...6 { writeFile("-- \(i)\n", "a.lua", in: folder) }
        #expect(watcher.wait(debounce: 0.3, timeout: 5) == .changed([script]))
        #expect(watcher.wait(debounce: 0.05, timeout: 0.1) == .timedOut)
        // Another file in the same folder is not watched.
        writeFile("x", "notes.txt", in: folder)
        #expect(watcher.wait(debounce: 0.05, timeout: 0.2) == .timedOut)
    }

    @Test func stopWakesAWaitAndSetFilesFollowsNewFiles() throws {
        let folder = makeTemporaryFolder("watch")
        let other = makeTemporaryFolder("watch-other")
        let a = writeFile("", "a.lua", in: folder)
        let b = writeFile("", "b.lua", in: other)
        let watcher = try FileWatcher(files: [a])
        watcher.setFiles([a, b])
        writeFile("return 1", "b.lua", in: other)
        #expect(watcher.wait(debounce: 0.02, timeout: 5) == .changed([b]))
        watcher.setFiles([a])
        writeFile("return 2", "b.lua", in: other)
        #expect(watcher.wait(debounce: 0.02, timeout: 0.2) == .timedOut)
        watcher.stop()
        #expect(watcher.wait() == .stopped)
    }
}

/// The script's folder deleted and made again (a branch switch, a `git stash`, a build step that
/// regenerates it): the watcher picks the new folder up, through relative and absolute paths.
@Suite(.timeLimit(.minutes(5))) struct WatchedFolderRecreatedTests {
    /// `plain`: the path as given; otherwise with `.` and `..` in it (still one folder).
    @Test(arguments: [true, false])
    func aDeletedAndRecreatedFolderIsWatchedAgain(plain: Bool) throws {
        let parent = makeTemporaryFolder("recreate")
        let folder = parent.appendingPathComponent("scripts/deep")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let absolute = writeFile("-- 1\n", "a.lua", in: folder)
        let watched = plain ? absolute : parent.path + "/./scripts/../scripts/deep/a.lua"
        let watcher = try FileWatcher(files: [watched])
        for round in 1...3 {
            try FileManager.default.removeItem(at: parent.appendingPathComponent("scripts"))
            // Its going away is a change (the reload reports the missing file).
            #expect(watcher.wait(debounce: 0.05, timeout: 5) == .changed([absolute]), "round \(round)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            writeFile("-- \(round)\n", "a.lua", in: folder)
            #expect(watcher.wait(debounce: 0.05, timeout: 5) == .changed([absolute]), "round \(round)")
            // Watched again: an edit in place is seen.
            writeFile("-- edited \(round)\n", "a.lua", in: folder)
            #expect(watcher.wait(debounce: 0.05, timeout: 5) == .changed([absolute]), "round \(round)")
        }
        // Other files in the recreated folder are still not watched.
        writeFile("x", "notes.txt", in: folder)
        #expect(watcher.wait(debounce: 0.05, timeout: 0.2) == .timedOut)
    }
}

@Suite(.timeLimit(.minutes(5))) struct WatchSessionTests {
    /// Runs a session on its own thread; `edits` run one by one, each when the session is
    /// waiting for a change. Returns the output and the diagnostics.
    func runSession(script: String, events: String?, edits: [() -> Void]) throws -> (lines: [String], diagnostics: [String]) {
        let output = CollectedOutput()
        let diagnostics = DiagnosticLines()
        let session = try WatchSession(RunOptions(scriptPath: script, eventsPath: events, timeout: 5),
                                       watch: WatchOptions(debounce: 0.05, maxReloads: edits.count),
                                       output: output) { diagnostics.append($0) }
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        session.onWaiting = { waiting.signal() }
        let running = Shared(session)
        let thread = Thread {
            do { try running.value.run() } catch { diagnostics.append("thrown: \(error)") }
            done.signal()
        }
        thread.start()
        for edit in edits {
            guard waiting.wait(timeout: .now() + 10) == .success else {
                Issue.record("the session did not come back to waiting")
                session.stop()
                break
            }
            edit()
        }
        if done.wait(timeout: .now() + 10) != .success {
            session.stop()
            Issue.record("the session did not end")
            _ = done.wait(timeout: .now() + 10)
        }
        return (output.lines, diagnostics.lines)
    }

    @Test func reloadsReplayTheEventsAndAFailedVersionKeepsThePreviousOne() throws {
        let folder = makeTemporaryFolder("session")
        let script = writeFile("""
            local box = motion.property({x = 100, y = 200}, {keep = "box"})
            motion.gesture(motion.pan{}):translation(box):subscribe(box)
            box:emit("v1")
            """, "drag.lua", in: folder)
        let events = writeFile(shortDragEvents, "drag.events.jsonl", in: folder)
        let result = try runSession(script: script, events: events, edits: [
            { writeFile("local box = motion.property(0, {keep = 'box'})\nbox:emit('v2'\n", "drag.lua", in: folder, byRename: true) },
            { writeFile("local box = motion.property(0, {keep = 'box'})\nbox:emit('v3')\n", "drag.lua", in: folder, byRename: true) },
        ])
        #expect(result.lines == [
            #"{"t":0,"name":"v1","value":{"x":100,"y":200}}"#,
            #"{"t":0.016,"name":"v1","value":{"x":112,"y":209}}"#,
            #"{"t":0.032,"name":"v1","value":{"x":120,"y":215}}"#,
            // v2 did not load; v3 replays from the start, its box too (a fresh run's output).
            #"{"t":0,"reload":"drag.lua","version":2}"#,
            #"{"t":0,"name":"v3","value":0}"#,
        ])
        #expect(result.diagnostics.count == 3)
        #expect(result.diagnostics[0].hasPrefix("error: ") && result.diagnostics[0].contains("drag.lua:3: ')' expected"))
        #expect(Array(result.diagnostics.dropFirst()) == [
            "-- drag.lua did not load; the previous version keeps running --",
            "-- reloaded drag.lua, replaying events --",
        ])
    }

    /// What SIGINT/SIGTERM do in the command: the session ends normally (exit 0).
    @Test func stopEndsASessionWaitingForChanges() throws {
        let folder = makeTemporaryFolder("session")
        let script = writeFile("motion.emit('up', true)\n", "idle.lua", in: folder)
        let session = try WatchSession(RunOptions(scriptPath: script), output: CollectedOutput()) { _ in }
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        session.onWaiting = { waiting.signal() }
        let running = Shared(session)
        let thread = Thread {
            do { try running.value.run() } catch { Issue.record("\(error)") }
            done.signal()
        }
        thread.start()
        #expect(waiting.wait(timeout: .now() + 10) == .success)
        session.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(session.pipeline.runtime == nil && session.pipeline.loads == 1)
    }

    /// The folder deleted (the reload fails, the old version keeps running), then back (moved
    /// into place whole, as a branch switch does): the new version loads.
    @Test func aScriptWhoseFolderIsDeletedAndMadeAgainReloads() throws {
        let parent = makeTemporaryFolder("session")
        let folder = parent.appendingPathComponent("scripts")
        let staging = parent.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let script = writeFile("motion.emit('v', 1)\n", "main.lua", in: folder)
        writeFile("motion.emit('v', 2)\n", "main.lua", in: staging)
        let result = try runSession(script: script, events: nil, edits: [
            { try? FileManager.default.removeItem(at: folder) },
            { _ = rename(staging.path, folder.path) },
        ])
        // A successful reload is marked on stdout before the new version's lines.
        #expect(result.lines == [#"{"t":0,"name":"v","value":1}"#, #"{"t":0,"reload":"main.lua","version":2}"#,
                                 #"{"t":0,"name":"v","value":2}"#])
        #expect(result.diagnostics.last == "-- reloaded main.lua --", "\(result.diagnostics)")
    }

    @Test func aChangedRequiredModuleReloadsTheScript() throws {
        let folder = makeTemporaryFolder("session")
        writeFile("return 1\n", "helper.lua", in: folder)
        let script = writeFile("motion.emit('helper', require 'helper')\n", "main.lua", in: folder)
        let result = try runSession(script: script, events: nil, edits: [
            { writeFile("return 2\n", "helper.lua", in: folder) },
        ])
        #expect(result.lines == [#"{"t":0,"name":"helper","value":1}"#, #"{"t":0,"reload":"main.lua","version":2}"#,
                                 #"{"t":0,"name":"helper","value":2}"#])
        #expect(result.diagnostics == ["-- reloaded main.lua --"])
    }

    @Test func aNewRecordingSavedOverTheEventsFileReplays() throws {
        let folder = makeTemporaryFolder("session")
        let script = writeFile("motion.pointers():subscribe(function(p) motion.emit('x', p.x) end)\n", "main.lua", in: folder)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":0}"# + "\n", "main.events.jsonl", in: folder)
        let result = try runSession(script: script, events: events, edits: [
            { writeFile(#"{"t":0,"id":1,"phase":"down","x":2,"y":0}"# + "\n", "main.events.jsonl", in: folder, byRename: true) },
        ])
        // Each replay ends by cancelling the pointer still down.
        #expect(result.lines == [#"{"t":0,"name":"x","value":1}"#, #"{"t":0,"name":"x","value":1}"#,
                                 #"{"t":0,"reload":"main.lua","version":2}"#,
                                 #"{"t":0,"name":"x","value":2}"#, #"{"t":0,"name":"x","value":2}"#])
        #expect(result.diagnostics == ["-- reloaded main.lua, replaying events --"])
    }
}

/// Lines appended from the session's thread, read after it ended.
final class DiagnosticLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
