import MotionControl
import MotionPluginHost
import MotionJSON
import MotionProxy

/// The live proxy as the daemon's service drives it (`daemon --proxy`): its devices in `ctl
/// status`, and `ctl pause`/SIGUSR1/the emergency gesture handing the desktop its pads. Called on
/// the host's thread.
public protocol ProxyControl: AnyObject {
    /// Every proxied device, in the order they were taken over.
    func proxyStatus() -> [ProxyDeviceStatus]
    /// Pause: every proxied device passes every frame to its clone, the touch in progress keeping
    /// its course (held frames released in order, a consumed touch kept to its lift); the devices
    /// stay grabbed, so nothing reaches the desktop twice.
    func passAll()
    /// Resume: each device's consumers decide again from its next moment with no finger down.
    func takeBack()
}

extension ProxyDeviceStatus {
    /// A device's status as its arbiter has it (on the thread that uses the arbiter).
    public init(node: String, name: String, clone: String?, grabbed: Bool, arbiter a: TouchArbiter, stalls: Int = 0) {
        // Every reason ended, the touch under way still passing to its end: "until the touch ends".
        let passing = a.passesAll ? (a.passReasons.isEmpty ? "until the touch ends" : a.passReasons.word) : nil
        self.init(node: node, name: name, clone: clone, grabbed: grabbed, passing: passing, last: a.lastDecision.map(Self.json),
                  touches: (a.touches.passed, a.touches.held, a.touches.consumed), stalls: stalls)
    }

    /// A decision as a replay's `proxy` line gives it: `{"t":…,"decision":"consumed","frames":21}`.
    public static func json(_ d: ProxyDecision) -> JSONValue {
        var o: [String: JSONValue] = ["t": .number(d.t), "decision": .string(d.word)]
        for (key, value) in d.details {
            switch value {
            case .integer(let n): o[key] = .number(Double(n))
            case .number(let x): o[key] = .number(x)
            case .string(let s): o[key] = .string(s)
            }
        }
        return .object(o)
    }
}

/// The live proxy's devices under `ctl`: each device's arbiter is used under its lock (the input
/// drain's thread passes a stall through it). The arbiters' time is the devices' clock (CLOCK_MONOTONIC seconds).
extension LiveProxy: ProxyControl {
    public func proxyStatus() -> [ProxyDeviceStatus] {
        devices.map { device in
            let (node, grabbed) = (device.cloneNode, device.isGrabbed)
            return device.with { ProxyDeviceStatus(node: device.node, name: device.tag.name, clone: node, grabbed: grabbed, arbiter: $0, stalls: device.stalls) }
        }
    }

    public func passAll() { pause() }

    public func takeBack() { resume() }
}
