import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput

/// The daemon sets the loop's `reloads` when the config folder changes and its `stopReason`
/// when the host stops, both while the loop runs: the loop must see them at its next step
/// (check 24 of scripts/test-live: a plugin file added live never loaded while the loop read
/// its hooks only when it started).
@Suite struct LiveLoopHooksTests {
    final class Frames: LiveFrameSource {
        var left: Int
        init(_ count: Int) { left = count }
        func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
            guard left > 0 else { return .end("end of input") }
            left -= 1
            return .frame(Frame(t: Double(10 - left) * 0.01, events: []))
        }
        func inputTimeNow() -> Double? { nil }
        func stop() { left = 0 }
    }

    final class Reloads: LiveReloads {
        var polls = 0
        var maxWait: Double? { nil }
        func poll() throws { polls += 1 }
    }

    final class Target: LiveTarget {
        var handled = 0
        var onFrame: (Int) -> Void = { _ in }
        func handle(_ frame: Frame) throws { handled += 1; onFrame(handled) }
        var nextDueTime: Double? { nil }
        func advance(to t: Double) throws {}
        func finish() throws {}
    }

    @Test func reloadsAndAStopSetWhileTheLoopRunsAreSeenAtTheNextStep() throws {
        let loop = LiveLoop(device: Frames(10))
        let target = Target(), reloads = Reloads()
        target.onFrame = { n in
            if n == 2 { loop.reloads = reloads }
            if n == 5 { loop.stopReason = { "stopped by the host" } }
        }
        let reason = try loop.run(target)
        #expect(reason == "stopped by the host")
        #expect(target.handled == 5)
        // Polled after frames 2, 3 and 4 (the stop is asked before the poll of frame 5's step).
        #expect(reloads.polls == 3)
    }
}
