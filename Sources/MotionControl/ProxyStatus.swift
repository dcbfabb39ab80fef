import MotionJSON

/// What `ctl status` says of one proxied device (`--proxy`, docs/control.md): the device, the
/// node of the clone the desktop reads, whether the device is grabbed, whether every frame passes
/// now and why (`stalled`, `paused`), the last decision, and its touches by what became of them.
/// A snapshot: the proxy's wiring makes it on the host's thread (MotionDaemon's `ProxyControl`);
/// plain values here, so the control socket depends on no proxy.
public struct ProxyDeviceStatus {
    public var node: String
    public var name: String
    /// The clone's node (`/dev/input/eventN`; nil when not known).
    public var clone: String?
    public var grabbed: Bool
    /// Why every frame passes (`stalled`, `paused`, `stalled+paused`); nil: the consumers decide.
    public var passing: String?
    /// The last decision as a replay's `proxy` line gives it (`{"t":…,"decision":"consumed","frames":21}`).
    public var last: JSONValue?
    /// Touches by what became of them: every frame passed at once; held, then released; consumed.
    public var touches: (passed: Int, held: Int, consumed: Int)
    /// Times the host stalled past 200 ms and the device passed straight to its clone.
    public var stalls: Int

    public init(node: String, name: String, clone: String?, grabbed: Bool, passing: String? = nil,
                last: JSONValue? = nil, touches: (passed: Int, held: Int, consumed: Int) = (0, 0, 0), stalls: Int = 0) {
        self.node = node
        self.name = name
        self.clone = clone
        self.grabbed = grabbed
        self.passing = passing
        self.last = last
        self.touches = touches
        self.stalls = stalls
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "node": .string(node), "name": .string(name), "clone": clone.map(JSONValue.string) ?? .null,
            "grabbed": .bool(grabbed), "stalls": .number(Double(stalls)),
            "touches": .object(["passed": .number(Double(touches.passed)), "held": .number(Double(touches.held)),
                                "consumed": .number(Double(touches.consumed))]),
        ]
        if let passing { o["passing"] = .string(passing) }
        if let last { o["last"] = last }
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
}
