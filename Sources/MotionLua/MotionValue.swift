import MotionGestures
import MotionStreams

/// What flows through streams composed in Lua: Lua's value kinds plus points and gesture
/// snapshots kept in Swift form, so pipelines of Swift operators never touch Lua per event.
public enum MotionValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case point(Point)
    case gesture(GestureValue)
    case array([MotionValue])
    /// A Lua table with keys other than 1...n, keys sorted for stable output.
    case object([(key: String, value: MotionValue)])

    public static func == (a: MotionValue, b: MotionValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.point(x), .point(y)): return x == y
        case let (.gesture(x), .gesture(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public var point: Point? {
        if case .point(let p) = self { return p }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    public var gesture: GestureValue? {
        if case .gesture(let g) = self { return g }
        return nil
    }

    /// A short name of the kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .point: return "point"
        case .gesture(let g): return "\(g.kind.rawValue) gesture"
        case .array, .object: return "table"
        }
    }
}
