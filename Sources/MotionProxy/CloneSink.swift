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
    /// Every frame passes from now on, whatever the consumers say (`why`: `stalled`, `paused`,
    /// or both joined by `+`): the desktop has its pad (`TouchArbiter.passAll`).
    case passing(t: Double, why: String)
    /// The consumers decide again (every reason to pass all ended, and no finger was down).
    case proxying(t: Double)

    /// Its word in output lines and `ctl status` ("held", "released"…).
    public var word: String {
        switch self {
        case .held: "held"
        case .released: "released"
        case .consumed: "consumed"
        case .lifted: "lifted"
        case .touch: "touch"
        case .passing: "passing"
        case .proxying: "proxying"
        }
    }

    /// Input time of the decision (seconds).
    public var t: Double {
        switch self {
        case .held(let t), .released(let t, _, _), .consumed(let t, _), .lifted(let t, _, _, _),
             .touch(let t, _, _, _), .passing(let t, _), .proxying(let t): t
        }
    }

    /// Its fields after the word, in output-line order (a replay's `proxy` line, `ctl status`).
    public var details: [(key: String, value: ProxyDecisionField)] {
        switch self {
        case .held, .proxying: []
        case .released(_, let frames, let lag): [("frames", .integer(frames)), ("lag", .number(lag))]
        case .consumed(_, let frames): [("frames", .integer(frames))]
        case .lifted(_, let fingers, let buttons, let why):
            [("fingers", .integer(fingers)), ("buttons", .integer(buttons)), ("why", .string(why))]
        case .touch(_, let passed, let held, let consumed):
            [("passed", .integer(passed)), ("held", .integer(held)), ("consumed", .integer(consumed))]
        case .passing(_, let why): [("why", .string(why))]
        }
    }
}

/// A value of a decision's field.
public enum ProxyDecisionField: Equatable, Sendable {
    case integer(Int)
    case number(Double)
    case string(String)
}

/// Why an arbiter passes every frame (`TouchArbiter.passAll`).
public struct PassReasons: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The host's thread was busy past `StallBound.seconds`.
    public static let stalled = PassReasons(rawValue: 1)
    /// `ctl pause`, SIGUSR1 or the emergency gesture.
    public static let paused = PassReasons(rawValue: 2)

    /// `stalled`, `paused`, `stalled+paused`.
    public var word: String {
        var words: [String] = []
        if contains(.stalled) { words.append("stalled") }
        if contains(.paused) { words.append("paused") }
        return words.joined(separator: "+")
    }
}

/// Touches of one device by what became of them.
public struct ProxyTouchCounts: Equatable, Sendable {
    /// Every frame reached the clone at once.
    public var passed = 0
    /// Held on the way (a consumer could still take it), then released to the clone.
    public var held = 0
    /// Taken by a consumer: the clone never saw it (or saw its start stand still).
    public var consumed = 0
    public init(passed: Int = 0, held: Int = 0, consumed: Int = 0) { (self.passed, self.held, self.consumed) = (passed, held, consumed) }
}

public protocol ProxyDecisionObserver: AnyObject {
    func proxy(_ decision: ProxyDecision, device: Int)
}
