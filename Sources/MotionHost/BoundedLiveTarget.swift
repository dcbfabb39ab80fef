import MotionGestures
import MotionLua

/// A script's runtime fed by live input under the time limit, stretch by stretch: live input has
/// no end to bound, so `--timeout` bounds each frame's work, each run of what fell due between
/// frames, and the settling at the end.
final class BoundedLiveTarget: LiveTarget {
    let runtime: LuaRuntime
    let options: RunOptions

    init(runtime: LuaRuntime, options: RunOptions) {
        self.runtime = runtime
        self.options = options
    }

    func handle(_ frame: Frame) throws {
        // Stopped by a signal while waiting: the last frame cancels the pointers still down.
        if Interruption.isRequested { Interruption.disarm() }
        try Runner.bounded(options, runtime) { try runtime.handle(frame) }
    }

    var nextDueTime: Double? { runtime.nextDueTime }

    func advance(to t: Double) throws {
        try Runner.bounded(options, runtime) { try runtime.advance(to: t) }
    }

    func finish() throws {
        if Interruption.isRequested { Interruption.disarm() }
        try Runner.bounded(options, runtime) { try runtime.finish() }
    }
}
