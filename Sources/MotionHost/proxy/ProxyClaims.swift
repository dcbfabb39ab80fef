import MotionGestures
import MotionLua
import MotionProxy

/// The consuming recognizers' claim on a device, after they saw a frame: what the replay
/// (`ProxyReplay`) and the live proxy (`LiveProxy`) hand each arbiter. `consumers` walks every
/// recognizer in the host's order (plugins in load order, each plugin's in creation order:
/// `PluginHost.eachRecognizer`).
struct ProxyClaims {
    let consumers: ((GestureRecognizer) -> Void) -> Void

    /// The strongest claim on `device` at input time `t` (the winner taking the touch: `ConsumerArbitration`).
    @inline(__always)
    func claim(on device: PointerDevice?, at t: Double) -> ConsumeClaim {
        ConsumerArbitration.claim(on: device, at: t, each: consumers)
    }

    /// Whether any recognizer consumes: without one, every frame passes (its claim is `.none`)
    /// and the live proxy decides it as it is read, before the host runs.
    var anyConsumer: Bool {
        var found = false
        consumers { if $0.consumes { found = true } }
        return found
    }
}

extension ProxyDecision {
    /// When it was decided (input time in a replay; the device's clock live).
    public var time: Double {
        switch self {
        case .held(let t), .released(let t, _, _), .consumed(let t, _), .lifted(let t, _, _, _), .touch(let t, _, _, _): return t
        }
    }

    /// The value of its `proxy` output line (docs/desktop.md), and of `ctl status`'s last decision.
    public var fields: [(key: String, value: MotionValue)] {
        switch self {
        case .held:
            return [("decision", .string("held"))]
        case .released(_, let frames, let lag):
            return [("decision", .string("released")), ("frames", .integer(frames)), ("lag", .number(lag))]
        case .consumed(_, let frames):
            return [("decision", .string("consumed")), ("frames", .integer(frames))]
        case .lifted(_, let fingers, let buttons, let why):
            return [("decision", .string("lifted")), ("fingers", .integer(fingers)), ("buttons", .integer(buttons)), ("why", .string(why))]
        case .touch(_, let passed, let held, let consumed):
            return [("decision", .string("touch")), ("passed", .integer(passed)), ("held", .integer(held)), ("consumed", .integer(consumed))]
        }
    }
}
