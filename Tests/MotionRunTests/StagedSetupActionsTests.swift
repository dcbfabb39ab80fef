import Foundation
import Testing
import MotionActions
import MotionPluginHost
import MotionRun
import MotionLua
import MotionTestSupport

/// A new version's setup does not act until the version is accepted (`run --watch`): its key
/// presses reach the device when it loads, and never when it fails to load.
@Suite struct StagedSetupActionsTests {
    let keyCount = { (sink: RecordingSink) in sink.events.filter { $0 != .synReport }.count }

    @Test func anAcceptedVersionsSetupActionsArePerformedInOrderWhenItLoads() throws {
        let folder = makeTemporaryFolder("staged")
        let script = writeFile(#"motion.keyDown("alt")"#, "v.lua", in: folder)
        let sink = RecordingSink()
        var options = RunOptions(scriptPath: script)
        options.actions = ActionHost(performs: true, device: sink)
        let pipeline = ReloadingPipeline(options, output: CollectedOutput())
        defer { pipeline.close() }
        _ = try pipeline.reload().get()
        #expect(sink.batches == [[.key(56, 1), .synReport]])
        writeFile(#"motion.keys("ctrl+a"); motion.keys("b")"#, "v.lua", in: folder)
        _ = try pipeline.reload().get()
        // ctrl and a down, up in reverse, b down and up (6 key events), all while alt is still
        // held by the old version, which lets go of it after.
        #expect(sink.batches == [
            [.key(56, 1), .synReport],
            [.key(29, 1), .key(30, 1), .synReport], [.key(30, 0), .key(29, 0), .synReport],
            [.key(48, 1), .synReport], [.key(48, 0), .synReport],
            [.key(56, 0), .synReport],
        ])
        #expect(keyCount(sink) == 8)
    }

    @Test func aVersionThatFailsToLoadPerformsNoneOfItsSetupActions() throws {
        let folder = makeTemporaryFolder("staged")
        let script = writeFile(#"motion.keyDown("alt")"#, "v.lua", in: folder)
        let sink = RecordingSink()
        var options = RunOptions(scriptPath: script)
        options.actions = ActionHost(performs: true, device: sink)
        let output = CollectedOutput()
        let pipeline = ReloadingPipeline(options, output: output)
        defer { pipeline.close() }
        _ = try pipeline.reload().get()
        sink.clear()
        writeFile("""
            motion.keys("ctrl+a")
            motion.keyDown("shift")
            error("broken")
            """, "v.lua", in: folder)
        #expect(throws: ScriptError.self) { try pipeline.reload().get() }
        #expect(keyCount(sink) == 0)
        // Its hold of shift went with it; the old version still holds alt.
        #expect(!options.actions.holds.isDown(42))
        #expect(options.actions.holds.count(56) == 1)
        #expect(pipeline.loads == 1)
        // The same edit, fixed, is performed when it loads: then the old version lets go of alt.
        writeFile(#"motion.keys("ctrl+a"); motion.keyDown("shift")"#, "v.lua", in: folder)
        _ = try pipeline.reload().get()
        #expect(sink.batches == [
            [.key(29, 1), .key(30, 1), .synReport], [.key(30, 0), .key(29, 0), .synReport],
            [.key(42, 1), .synReport],
            [.key(56, 0), .synReport],
        ])
    }
}
