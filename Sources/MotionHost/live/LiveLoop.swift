import MotionGestures
import MotionInput
import MotionLua

/// What a live loop feeds: a script's runtime, or the reloading pipeline of `run --watch`.
public protocol LiveTarget: AnyObject {
    func handle(_ frame: Frame) throws
    /// The input time at which something falls due without input (nil: nothing waits on time).
    var nextDueTime: Double? { get }
    /// Input time reached `t` without a frame: run what fell due by then.
    func advance(to t: Double) throws
    /// The end of input: what is still scheduled settles, as at the end of a file.
    func finish() throws
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
}

extension LiveDevice: LiveFrameSource {}
extension LiveDeviceSet: LiveFrameSource {}

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
    /// Seconds until the host has something to do without input (a desktop provider's
    /// reconnection, see `LiveFocus`): no wait lasts longer. Nil: nothing.
    public var hostDue: (() -> Double?)?

    public init(device: LiveFrameSource) {
        self.device = device
    }

    /// Runs what already fell due, or else waits at most `maxWait` seconds (nil: as long as it
    /// takes) for a frame or the next due time.
    public func step(_ target: LiveTarget, maxWait: Double? = nil) throws -> Step {
        // Read once: nothing changes them before the wait (each walks the recognizers or the devices).
        let due = target.nextDueTime
        let now = due == nil ? nil : device.inputTimeNow()
        if let due, let now, due <= now {
            // Input that is already waiting (read and queued, or still in the kernel after a
            // stall) comes first: handling a frame runs what fell due before it, in time order.
            // Otherwise a tap would be decided by its interval before its own lift, already
            // there to read, and output times would go back.
            switch try device.nextFrame(timeout: 0) {
            case .frame(let frame):
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
        if let due = hostDue?() { wait = min(wait ?? .infinity, due) }
        switch try device.nextFrame(timeout: wait) {
        case .frame(let frame):
            try target.handle(frame)
            return .frame
        case .timeout:
            return .idle
        case .end(let reason):
            return .end(reason)
        }
    }

    /// Steps until input ends, then settles what is still scheduled; returns why input ended.
    public func run(_ target: LiveTarget) throws -> String {
        defer { try? afterStep?() }
        while true {
            let step = try step(target)
            if case .end(let reason) = step {
                try target.finish()
                return reason
            }
            try afterStep?()
        }
    }
}
