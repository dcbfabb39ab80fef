import MotionGestures
import MotionJSON
import MotionStreams

/// The JSON of the values streams carry, and the output lines: written by MotionJSON's writer,
/// inlined here (the per-line path).
extension JSONWriter {
    @inlinable public mutating func point(_ p: Point) {
        raw("{\"x\":")
        number(p.x)
        raw(",\"y\":")
        number(p.y)
        byte(125)
    }

    @inlinable public mutating func value(_ value: MotionValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .number(let n): number(n)
        case .integer(let i): integer(Int64(i))
        case .string(let s): string(s)
        case .point(let p): point(p)
        case .gesture(let g): gesture(g)
        case .array(let items):
            byte(91)
            for (i, item) in items.enumerated() {
                if i > 0 { byte(44) }
                self.value(item)
            }
            byte(93)
        case .object(let fields):
            byte(123)
            for (i, field) in fields.enumerated() {
                if i > 0 { byte(44) }
                string(field.key)
                byte(58)
                self.value(field.value)
            }
            byte(125)
        case .pointerEvent(let e):
            raw("{\"id\":")
            integer(Int64(e.id))
            raw(",\"phase\":")
            string(e.phase.rawValue)
            raw(",\"x\":")
            number(e.x)
            raw(",\"y\":")
            number(e.y)
            if let device = e.device {
                // Live input: which device the pointer came from.
                raw(",\"device\":{\"name\":")
                string(device.name)
                raw(",\"kind\":")
                string(device.kind)
                byte(125)
            }
            byte(125)
        }
    }

    /// A gesture value: kind, state, pointers, location, then the kind's own values.
    @inlinable public mutating func gesture(_ g: GestureValue) {
        raw("{\"kind\":")
        string(g.kind.rawValue)
        raw(",\"state\":")
        string(g.state.rawValue)
        raw(",\"pointers\":")
        integer(Int64(g.pointers))
        raw(",\"location\":")
        point(g.centroid)
        switch g.kind {
        case .translation:
            raw(",\"translation\":")
            point(g.translation)
            raw(",\"velocity\":")
            point(g.velocity)
        case .rotation:
            raw(",\"rotation\":")
            number(g.rotation)
            raw(",\"velocity\":")
            number(g.scalarVelocity)
        case .scale:
            raw(",\"scale\":")
            number(g.scale)
            raw(",\"velocity\":")
            number(g.scalarVelocity)
        case .tap:
            raw(",\"taps\":")
            integer(Int64(g.taps))
        case .swipe:
            raw(",\"direction\":")
            if let direction = g.direction { string(direction.rawValue) } else { raw("null") }
            raw(",\"distance\":")
            number(g.distance)
            raw(",\"velocity\":")
            number(g.scalarVelocity)
        case .hold:
            break
        }
        byte(125)
    }

    /// An output line's value: `{"t":…,"name":…,"value":…}` and a newline.
    @inlinable public mutating func valueLine(t: Double, name: String, value: MotionValue) {
        raw("{\"t\":")
        time(t)
        nameField(name)
        raw(",\"value\":")
        self.value(value)
        raw("}\n")
    }

    /// An output line's state: `{"t":…,"name":…,"state":"active"|"atRest"}` and a newline.
    @inlinable public mutating func stateLine(t: Double, name: String, state: MotionState) {
        raw("{\"t\":")
        time(t)
        nameField(name)
        state == .active ? raw(",\"state\":\"active\"}\n") : raw(",\"state\":\"atRest\"}\n")
    }
}
