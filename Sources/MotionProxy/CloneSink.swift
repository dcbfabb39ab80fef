import MotionInput

/// Where the arbiter's frames for the desktop's clone go: a uinput device live, an evemu
/// recording in a replay (`--proxy-output`), an array in tests. Each call is one whole frame,
/// its events ending with `SYN_REPORT`; `due` is the input time (seconds, the device's clock) at
/// which it should reach the clone: the frame's own time when passed straight through, later for
/// frames released after being held (`TouchArbiter`, "pace"). Calls come in `due` order.
public protocol CloneSink: AnyObject {
    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double)
}

/// What the arbiter decided, for status lines (`ctl status`'s last decision, a replay's
/// `proxy` output lines) and tests. Told only at changes, never per passed frame.
public enum ProxyDecision: Equatable, Sendable {
    /// The first frame of a run the clone does not get yet (a consumer can still match).
    case held(t: Double)
    /// Every consumer failed: `frames` held frames went to the clone in order, `lag` seconds
    /// behind their own times (the rest of the touch keeps that lag: "pace").
    case released(t: Double, frames: Int, lag: Double)
    /// A consumer began: `frames` held frames were dropped; the rest of the touch is kept away.
    case consumed(t: Double, frames: Int)
    /// The clone's fingers and buttons were lifted by the proxy (`why`: `touch-end` after a
    /// consumed touch, `dropped` after SYN_DROPPED, `end` when the device went away).
    case lifted(t: Double, fingers: Int, buttons: Int, why: String)
    /// A touch ended (last finger up, nothing held): how many of its frames the clone got,
    /// how many were held on the way, and how many it never got.
    case touch(t: Double, passed: Int, held: Int, consumed: Int)
}

public protocol ProxyDecisionObserver: AnyObject {
    func proxy(_ decision: ProxyDecision, device: Int)
}
