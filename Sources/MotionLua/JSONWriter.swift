import MotionGestures
import MotionStreams

/// Writes JSON into a reusable byte buffer: output lines are built without Strings, so writing
/// one costs no allocation once the buffer has grown. Numbers read back to the same double:
/// integers print without a fraction, others in Swift's shortest round-trip form; NaN and
/// infinities print as null.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func number(_ n: Double) {
        guard n.isFinite else { return raw("null") }
        if n == n.rounded(), abs(n) < 1e15 {
            integer(Int64(n))
        } else {
            // Shortest round-trip digits; up to 15 bytes stay an inline small String. Integral
            // values from 1e15 to 2^53 come out as "1000000000000000.0": drop the ".0".
            let text = n.description.utf8
            bytes.append(contentsOf: text.count > 2 && text.suffix(2).elementsEqual(".0".utf8) ? text.dropLast(2) : text[...])
        }
    }

    /// Input time as output lines carry it: in whole microseconds (the resolution of evdev
    /// timestamps), so sums such as 0.128 + 1 (a delay) print 1.128, not 1.1280000000000001.
    public mutating func time(_ t: Double) {
        number(t.isFinite && abs(t) < 9e9 ? (t * 1_000_000).rounded() / 1_000_000 : t)
    }

    public mutating func integer(_ value: Int64) {
        if value == 0 { return bytes.append(48) }
        var v = value.magnitude
        if value < 0 { bytes.append(45) }
        let start = bytes.count
        while v > 0 {
            bytes.append(UInt8(48 + v % 10))
            v /= 10
        }
        bytes[start...].reverse()
    }

    public mutating func string(_ s: String) {
        bytes.append(34)
        for byte in s.utf8 {
            switch byte {
            case 34: raw("\\\"")
            case 92: raw("\\\\")
            case 10: raw("\\n")
            case 13: raw("\\r")
            case 9: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(hex(byte >> 4))
                bytes.append(hex(byte & 15))
            default: bytes.append(byte)
            }
        }
        bytes.append(34)
    }

    private func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 48 + nibble : 87 + nibble }

    public mutating func point(_ p: Point) {
        raw("{\"x\":")
        number(p.x)
        raw(",\"y\":")
        number(p.y)
        bytes.append(125)
    }

    public mutating func value(_ value: MotionValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .number(let n): number(n)
        case .integer(let i): integer(Int64(i))
        case .string(let s): string(s)
        case .point(let p): point(p)
        case .gesture(let g): gesture(g)
        case .array(let items):
            bytes.append(91)
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(44) }
                self.value(item)
            }
            bytes.append(93)
        case .object(let fields):
            bytes.append(123)
            for (i, field) in fields.enumerated() {
                if i > 0 { bytes.append(44) }
                string(field.key)
                bytes.append(58)
                self.value(field.value)
            }
            bytes.append(125)
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
                bytes.append(125)
            }
            bytes.append(125)
        }
    }

    /// A gesture value: kind, state, pointers, location, then the kind's own values.
    public mutating func gesture(_ g: GestureValue) {
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
        bytes.append(125)
    }

    /// An output line's value: `{"t":…,"name":…,"value":…}` and a newline.
    public mutating func valueLine(t: Double, name: String, value: MotionValue) {
        raw("{\"t\":")
        time(t)
        raw(",\"name\":")
        string(name)
        raw(",\"value\":")
        self.value(value)
        raw("}\n")
    }

    /// An output line's state: `{"t":…,"name":…,"state":"active"|"atRest"}` and a newline.
    public mutating func stateLine(t: Double, name: String, state: MotionState) {
        raw("{\"t\":")
        time(t)
        raw(",\"name\":")
        string(name)
        state == .active ? raw(",\"state\":\"active\"}\n") : raw(",\"state\":\"atRest\"}\n")
    }
}
