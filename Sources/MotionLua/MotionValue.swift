import MotionGestures
import MotionStreams

/// What flows through streams composed in Lua: Lua's value kinds plus points and gesture
/// snapshots kept in Swift form, so pipelines of Swift operators never touch Lua per event.
public enum MotionValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    /// A Lua integer: stays an integer through Swift and prints exactly (all 64 bits).
    case integer(Int)
    case string(String)
    case point(Point)
    case gesture(GestureValue)
    case array([MotionValue])
    /// A Lua table with keys other than 1...n, keys sorted for stable output.
    case object([(key: String, value: MotionValue)])
    /// One pointer change as `motion.pointers()` hands it out: to scripts and in output exactly
    /// the table `{id=, phase=, x=, y=}` (see `fields`), kept as the struct so the per-event
    /// path builds no Swift array and no key strings.
    case pointerEvent(PointerEvent)

    public static func == (a: MotionValue, b: MotionValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        // As in Lua, 1 == 1.0 (exactly: 2^53 + 1 is not 2^53).
        case let (.integer(x), .number(y)), let (.number(y), .integer(x)):
            return Double(exactly: x) == y || Int(exactly: y) == x
        case let (.string(x), .string(y)): return x == y
        case let (.point(x), .point(y)): return x == y
        case let (.gesture(x), .gesture(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.pointerEvent(x), .pointerEvent(y)):
            return x.id == y.id && x.phase == y.phase && x.x == y.x && x.y == y.y && x.device == y.device
        // The same table either way.
        case let (.pointerEvent(e), .object), let (.object, .pointerEvent(e)):
            return MotionValue.pointerFields(e) == (a.isPointerEvent ? b : a)
        default: return false
        }
    }

    /// The table a pointer event stands for, keys sorted as every `.object`.
    public static func pointerFields(_ e: PointerEvent) -> MotionValue {
        let fields: [(key: String, value: MotionValue)] = [("id", .integer(e.id)), ("phase", .string(e.phase.rawValue)),
                                                           ("x", .number(e.x)), ("y", .number(e.y))]
        guard let device = e.device else { return .object(fields) }
        return .object([("device", .object([("kind", .string(device.kind)), ("name", .string(device.name))]))] + fields)
    }

    var isPointerEvent: Bool {
        if case .pointerEvent = self { return true }
        return false
    }

    public var point: Point? {
        if case .point(let p) = self { return p }
        return nil
    }

    /// Any number as a Double (integers beyond 2^53 round).
    public var number: Double? {
        switch self {
        case .number(let n): return n
        case .integer(let i): return Double(i)
        default: return nil
        }
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
        case .number, .integer: return "number"
        case .string: return "string"
        case .point: return "point"
        case .gesture(let g): return "\(g.kind.rawValue) gesture"
        case .array, .object, .pointerEvent: return "table"
        }
    }
}
