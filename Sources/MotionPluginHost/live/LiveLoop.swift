import MotionGestures
import MotionInput
import MotionLua
import MotionStreams

/// What a live loop feeds: the plugin host — `run`'s one script (`OneScript`, also under
/// `--watch`) or the daemon's plugins.
public protocol LiveTarget: AnyObject {
    func handle(_ frame: Frame) throws
    /// The input time at which something falls due without input (nil: nothing waits on time).
    var nextDueTime: Double? { get }
    /// Input time reached `t` without a frame: run what fell due by then.
    func advance(to t: Double) throws
    /// The end of input: what is still scheduled settles, as at the end of a file.
    func finish() throws
    /// The loop is about to wait without a limit (nothing scheduled) after work other than a
    /// frame (start-up, scheduled work that ran, a wait that ended without input): the host
    /// lets its other threads sleep without a timeout too (its watchdog's pending look,
    /// `Watchdog.quiesce`), so an idle host wakes 0 times. Not after a frame: input usually goes
    /// on, and cancelling a look per frame costs a system call per frame (the watchdog then
    /// looks once, a time limit after the last frame).
    func willWaitIdle()
}

extension LiveTarget {
    public func willWaitIdle() {}
}

extension LuaRuntime: LiveTarget {}

/// Where a live loop reads: a device (or a test's scripted source).
public protocol LiveFrameSource: AnyObject {
    /// The next frame, waiting at most `timeout` seconds (nil: no limit).
    func nextFrame(timeout: Double?) throws -> LiveDevice.Next
    /// Input time now on the device's clock (nil before the first event).
    func inputTimeNow() -> Double?
    /// Ends input: the pointers still down are cancelled in a last frame, then `.end`.
    func stop()
    /// The one wait the source waits in, where watchers, sockets and timers register (nil: a
    /// source that waits on nothing else, as a test's scripted one).
    var eventLoop: EventLoop? { get }
    /// What `--surface mm` takes the screen size from (`EvdevSourceInfo`): the source, or its
    /// first device.
    var screenSource: AnyObject? { get }
}

extension LiveFrameSource {
    public var eventLoop: EventLoop? { nil }
    public var screenSource: AnyObject? { self }
}

extension LiveDevice: LiveFrameSource {}
extension LiveDeviceSet: LiveFrameSource {
    public var eventLoop: EventLoop? { loop }
    public var screenSource: AnyObject? { firstDevice }
}

/// Live input where time flows: waits for the next frame *or* the next time something falls due
/// (a tap decision, a delay, a spring frame), whichever comes first, and runs what fell due,
/// stamped with its due time on the device's clock. Without it a tap would be decided, and a delay
/// would fire, only when the next touch arrived.
public final class LiveLoop {
    public let device: LiveFrameSource

    /// What one `step` did.
    public enum Step: Equatable {
        case frame
        /// Scheduled work fell due and ran.
        case due
        /// Nothing happened within the wait.
        case idle
        /// Input ended (the last frame, cancelling the pointers still down, was handled before).
        case end(String)
    }

    /// Called after every step (live output is written frame by frame from here).
    public var afterStep: (() throws -> Void)?
    /// Flushed after every step, after `afterStep`: a frame's lines leave together in one write
    /// as soon as its work is done (a call, not a closure in `afterStep`: one per frame).
    public var output: JSONLinesOutput?
    /// Between steps: what reloads the target's scripts (nil: they stay as they are).
    public var reloads: LiveReloads?
    /// Asked after each step: a reason ends input there, settling nothing (the daemon whose
    /// output cannot be written). Nil: only the end of input ends it.
    public var stopReason: (() -> String?)?
    /// The error policy for a script error a step throws. Nil: the error ends the run, thrown
    /// (`run`: the first error that gets past the callback policy stops the script). Set: the
    /// error is handed over and input goes on (`run --watch`: reported, the next version takes
    /// over); a reason returned ends input at once (an interruption). `atEnd`: the error came
    /// from settling at the end of input, which ends anyway. (The daemon's plugins keep their
    /// errors to themselves: its target throws none.)
    public var onError: ((_ error: ScriptError, _ atEnd: Bool) -> String?)?
    /// The last step handled a frame (no `willWaitIdle` before the next wait).
    @usableFromInline var afterFrame = false

    public init(device: LiveFrameSource) {
        self.device = device
    }

    /// Runs what already fell due, or else waits at most `maxWait` seconds (nil: as long as it
    /// takes) for a frame or the next due time.
    /// (Generic, so that `run`'s one target is called directly, not through its witness table;
    /// inlined into `run`, which calls it per frame.)
    @inlinable @inline(__always)
    public func step<Target: LiveTarget>(_ target: Target, maxWait: Double? = nil) throws -> Step {
        // Read once: nothing changes them before the wait (each walks the recognizers or the devices).
        let due = target.nextDueTime
        let now = due == nil ? nil : device.inputTimeNow()
        if let due, let now, due <= now {
            // Input that is already waiting (read and queued, or still in the kernel after a
            // stall) comes first: handling a frame runs what fell due before it, in time order.
            // Otherwise a tap would be decided by its interval before its own lift, already
            // there to read, and output times would go back.
            afterFrame = false
            switch try device.nextFrame(timeout: 0) {
            case .frame(let frame):
                afterFrame = true
                try target.handle(frame)
                return .frame
            case .end(let reason):
                return .end(reason)
            case .timeout:
                break
            }
            // Each due time in order; bounded, since a zero delay that feeds itself never ends
            // (the runtime's time limit stops that one).
            var steps = 0
            while let next = target.nextDueTime, next <= now, steps < 100_000 {
                try target.advance(to: next)
                steps += 1
            }
            return .due
        }
        var wait = maxWait
        if let due, let now {
            wait = min(wait ?? .infinity, due - now)
        }
        if wait == nil, !afterFrame { target.willWaitIdle() }
        afterFrame = false
        switch try device.nextFrame(timeout: wait) {
        case .frame(let frame):
            afterFrame = true
            try target.handle(frame)
            return .frame
        case .timeout:
            return .idle
        case .end(let reason):
            return .end(reason)
        }
    }

    /// Steps until input ends, then settles what is still scheduled; returns why input ended.
    /// The one loop of live input, always feeding the plugin host: `run --device` (its one
    /// script), `run --watch --device` (the same, `reloads` the script's file watcher) and the
    /// daemon (every plugin, `reloads` the config folder's watcher).
    /// `afterStep` and `output` are read when it starts (they are set before): each step then
    /// calls them without a retain and a release of their contexts. `reloads` and `stopReason`
    /// are read at every step: the daemon sets them while the loop runs (a change in the config
    /// folder, the host stopping).
    @inlinable
    public func run<Target: LiveTarget>(_ target: Target) throws -> String {
        let afterStep = self.afterStep, output = self.output
        // Held by `output` (`Unretained`'s owner, used at the end): each step's flush without a
        // retain and a release.
        let flushed = output.map(Unretained.init)
        defer {
            try? afterStep?()
            output?.flush()
        }
        while true {
            let step: Step
            do {
                step = try self.step(target, maxWait: self.reloads?.maxWait)
            } catch let error as ScriptError where onError != nil {
                if let reason = onError!(error, false) { return reason }
                step = .idle
            }
            if let reason = self.stopReason?() { return reason }
            if case .end(let reason) = step {
                do {
                    try target.finish()
                } catch let error as ScriptError where onError != nil {
                    _ = onError!(error, true)
                }
                return reason
            }
            try afterStep?()
            flushed?.with { $0.flush() }
            try self.reloads?.poll()
        }
    }
}
