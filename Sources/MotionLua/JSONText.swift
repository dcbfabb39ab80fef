import MotionGestures
import MotionStreams

/// JSON text for output lines. Numbers read back to the same double: integers print without
/// a fraction, others in Swift's shortest round-trip form; NaN and infinities print as null.
public enum JSONText {
    public static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 {
            return n == 0 ? "0" : String(Int64(n))
        }
        return n.description
    }

    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public static func point(_ p: Point) -> String {
        "{\"x\":\(number(p.x)),\"y\":\(number(p.y))}"
    }

    public static func value(_ value: MotionValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return number(n)
        case .string(let s): return string(s)
        case .point(let p): return point(p)
        case .gesture(let g): return gesture(g)
        case .array(let items): return "[" + items.map(Self.value).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { string($0.key) + ":" + Self.value($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A gesture value: kind, state, pointers, location, then the kind's own values.
    public static func gesture(_ g: GestureValue) -> String {
        var out = "{\"kind\":\"\(g.kind.rawValue)\",\"state\":\"\(g.state.rawValue)\",\"pointers\":\(g.pointers),\"location\":\(point(g.centroid))"
        switch g.kind {
        case .translation:
            out += ",\"translation\":\(point(g.translation)),\"velocity\":\(point(g.velocity))"
        case .rotation:
            out += ",\"rotation\":\(number(g.rotation)),\"velocity\":\(number(g.scalarVelocity))"
        case .scale:
            out += ",\"scale\":\(number(g.scale)),\"velocity\":\(number(g.scalarVelocity))"
        case .tap:
            out += ",\"taps\":\(g.taps)"
        }
        return out + "}"
    }
}
