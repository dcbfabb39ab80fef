import MotionGestures
import MotionLua

/// A script fed by live input under the time limit, stretch by stretch: live input has no end to
/// bound, so `--timeout` bounds each frame's work, each run of what fell due between frames, and
/// the settling at the end — never the wait for input. The script is a runtime (`run --device`)
/// or the version a reloading pipeline runs now (`run --watch --device`).
/// Generic over the target so each use is specialized: no dispatch per frame.
final class BoundedLiveTarget<Target: LiveTarget>: LiveTarget {
    let target: Target
    let options: RunOptions
    /// The state the time limit stops (a reloaded script's changes with each version).
    let runtime: () -> LuaRuntime?

    init(_ target: Target, options: RunOptions, runtime: @escaping () -> LuaRuntime?) {
        self.target = target
        self.options = options
        self.runtime = runtime
    }


    func handle(_ frame: Frame) throws {
        // Stopped by a signal while waiting: the last frame cancels the pointers still down.
        if Interruption.isRequested { Interruption.disarm() }
        try bounded { try target.handle(frame) }
    }

    var nextDueTime: Double? { target.nextDueTime }

    func advance(to t: Double) throws {
        try bounded { try target.advance(to: t) }
    }

    func finish() throws {
        if Interruption.isRequested { Interruption.disarm() }
        try bounded { try target.finish() }
    }

    private func bounded(_ body: () throws -> Void) throws {
        guard options.timeout > 0, let runtime = runtime() else { return try body() }
        try Runner.bounded(options, runtime, body)
    }
}
