import MotionLua
import MotionProxy
import MotionScenarios

/// What `ctl status` says of one proxied device (`--proxy`, docs/control.md): the device, the
/// node of the clone the desktop reads, whether the device is grabbed, whether every frame passes
/// now and why (`stalled`, `paused`), the last decision, and its touches by what became of them.
/// A snapshot: the proxy's wiring makes it on the host's thread.
public struct ProxyDeviceStatus: Equatable {
    public var node: String
    public var name: String
    /// The clone's node (`/dev/input/eventN`; nil when not known).
    public var clone: String?
    public var grabbed: Bool
    /// Why every frame passes (`stalled`, `paused`, `stalled+paused`); nil: the consumers decide.
    public var passing: String?
    public var lastDecision: ProxyDecision?
    public var touches: ProxyTouchCounts
    /// Times the host stalled past 200 ms and the device passed straight to its clone.
    public var stalls: Int

    public init(node: String, name: String, clone: String?, grabbed: Bool, passing: String? = nil,
                lastDecision: ProxyDecision? = nil, touches: ProxyTouchCounts = ProxyTouchCounts(), stalls: Int = 0) {
        self.node = node
        self.name = name
        self.clone = clone
        self.grabbed = grabbed
        self.passing = passing
        self.lastDecision = lastDecision
        self.touches = touches
        self.stalls = stalls
    }

    /// The device's status as its lane's arbiter has it (read under the lane's lock).
    public init(node: String, name: String, clone: String?, grabbed: Bool, lane: ProxyLane) {
        let (passing, last, touches) = lane.with { a in
            // Every reason ended, the touch under way still passing to its end.
            (a.passesAll ? (a.passReasons.isEmpty ? "until the touch ends" : a.passReasons.word) : nil, a.lastDecision, a.touches)
        }
        self.init(node: node, name: name, clone: clone, grabbed: grabbed, passing: passing, lastDecision: last,
                  touches: touches, stalls: lane.stalls)
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "node": .string(node), "name": .string(name), "clone": clone.map(JSONValue.string) ?? .null,
            "grabbed": .bool(grabbed), "stalls": .number(Double(stalls)),
            "touches": .object(["passed": .number(Double(touches.passed)), "held": .number(Double(touches.held)),
                                "consumed": .number(Double(touches.consumed))]),
        ]
        if let passing { o["passing"] = .string(passing) }
        if let d = lastDecision { o["last"] = Self.json(d) }
        return .object(o)
    }

    /// `ctl status`'s text for one device of its JSON (`status["proxy"]`):
    /// `  /dev/input/event5 -> clone /dev/input/event9  Test Clickpad  (grabbed)  PASSING ALL: paused`,
    /// then `    touches: 12 passed, 3 held, 2 consumed; stalls: 1; last: consumed frames 21 at 12.3 s`.
    public static func textLines(_ p: JSONValue) -> [String] {
        var first = "  \(p["node"]?.stringValue ?? "?") -> clone \(p["clone"]?.stringValue ?? "(node unknown)")  \(p["name"]?.stringValue ?? "")"
        if p["grabbed"]?.boolValue == true { first += "  (grabbed)" }
        if let passing = p["passing"]?.stringValue { first += "  PASSING ALL: \(passing)" }
        let touches = p["touches"]
        func count(_ key: String) -> Int { Int(touches?[key]?.numberValue ?? 0) }
        var second = "    touches: \(count("passed")) passed, \(count("held")) held, \(count("consumed")) consumed; stalls: \(Int(p["stalls"]?.numberValue ?? 0))"
        if let last = p["last"], let word = last["decision"]?.stringValue {
            guard case .object(let o) = last else { return [first, second] }
            let fields = o.filter { $0.key != "decision" && $0.key != "t" }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.stringValue ?? $0.value.jsonText)" }
            second += "; last: " + ([word] + fields).joined(separator: " ") + " at \(JSONText.number(last["t"]?.numberValue ?? 0)) s"
        }
        return [first, second]
    }

    /// A decision as in a replay's `proxy` line: `{"t":…,"decision":"consumed","frames":21}`.
    static func json(_ d: ProxyDecision) -> JSONValue {
        var o: [String: JSONValue] = ["t": .number(d.t), "decision": .string(d.word)]
        for (key, value) in d.fields {
            switch value {
            case .integer(let n): o[key] = .number(Double(n))
            case .number(let x): o[key] = .number(x)
            case .string(let s): o[key] = .string(s)
            }
        }
        return .object(o)
    }
}

/// The proxy as the daemon's control sees it (`daemon --proxy` on live input). Called on the
/// host's thread.
public protocol ProxyControl: AnyObject {
    /// Every proxied device, in the order they were taken over.
    func proxyStatus() -> [ProxyDeviceStatus]
    /// `ctl pause`, SIGUSR1, the emergency gesture: every proxied device passes every frame to its
    /// clone, the touch in progress keeping its course (held frames released in order, a consumed
    /// touch kept to its lift); the devices stay grabbed, so nothing reaches the desktop twice.
    func passAll()
    /// `ctl resume`: each device's consumers decide again from its next moment with no finger down.
    func takeBack()
}
