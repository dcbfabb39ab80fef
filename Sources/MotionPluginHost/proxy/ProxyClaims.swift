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
    public var time: Double { t }

    /// The value of its `proxy` output line (docs/desktop.md), and of `ctl status`'s last decision.
    public var fields: [(key: String, value: MotionValue)] {
        [("decision", .string(word))] + details.map { key, value in
            switch value {
            case .integer(let n): (key, .integer(n))
            case .number(let x): (key, .number(x))
            case .string(let s): (key, .string(s))
            }
        }
    }
}
