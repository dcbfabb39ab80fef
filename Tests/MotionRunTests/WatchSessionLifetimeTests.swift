import Foundation
import MotionGestures
import MotionPluginHost
import MotionRun
import Testing
import MotionTestSupport

/// A host that runs for months must not keep what a session made once it is over.
@Suite struct WatchSessionLifetimeTests {
    @Test func aLiveSessionsPipelineIsFreedWithTheSession() throws {
        let folder = makeTemporaryFolder("lifetime")
        let script = writeFile("motion.pointers():subscribe(function() end)\n", "s.lua", in: folder)
        weak var pipeline: ReloadingPipeline?
        do {
            let frames = [Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)])]
            let source = EditingLiveSource(frames: frames, editAfter: 100) {}
            let session = try WatchSession(RunOptions(scriptPath: script), output: CollectedOutput()) { _ in }
            pipeline = session.pipeline
            #expect(try session.runLive(source) == "end of input")
        }
        #expect(pipeline == nil)
    }
}
