import MotionStreams

/// What happened to one pointer (finger, pen, mouse button) in an input frame.
public enum PointerPhase: String, Sendable, Equatable {
    case down, move, up, cancel
}

/// One pointer change: the unit of the pointer model every input format decodes to.
public struct PointerEvent: Sendable, Equatable {
    /// Input time in seconds, relative to the first event of the input.
    public var t: Double
    /// Which pointer: stable from `down` to `up` or `cancel`.
    public var id: Int
    /// What happened to it.
    public var phase: PointerPhase
    /// Screen position, x (input units).
    public var x: Double
    /// Screen position, y (input units, y down).
    public var y: Double
    /// The live device the pointer is on (nil for event files).
    public var device: PointerDevice?

    /// One pointer change at input time `t`.
    public init(t: Double, id: Int, phase: PointerPhase, x: Double, y: Double) {
        self.t = t
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        device = nil
    }

    /// A pointer change from a live device.
    public init(t: Double, id: Int, phase: PointerPhase, x: Double, y: Double, device: PointerDevice?) {
        self.init(t: t, id: id, phase: phase, x: x, y: y)
        self.device = device
    }

    /// The position as a point.
    public var point: Point { Point(x: x, y: y) }
}

/// The pointer changes that happened at one instant (an evdev SYN_REPORT, or JSON Lines with
/// equal `t`). Recognizers see a frame whole.
public struct Frame: Sendable, Equatable {
    /// Input time of the frame, seconds.
    public var t: Double
    /// The changes, in input order.
    public var events: [PointerEvent]
    /// A change of the focused application at `t` (an event file's app line, a desktop
    /// provider): such a frame has no events. The dispatcher applies it before recognizers see
    /// the frame.
    public var focus: FocusChange?

    /// A frame at input time `t`.
    public init(t: Double, events: [PointerEvent]) {
        self.t = t
        self.events = events
    }

    /// A frame that only changes the focused application.
    public init(t: Double, focus: FocusChange) {
        self.t = t
        self.events = []
        self.focus = focus
    }
}

/// Which live device a pointer came from: its name and kind (`touchscreen`, `touchpad`, `mouse`,
/// `other`). A class, so every event of a device shares one.
public final class PointerDevice: Sendable, Equatable {
    /// The device's name, as the kernel reports it.
    public let name: String
    /// `touchscreen`, `touchpad`, `mouse` or `other`.
    public let kind: String

    /// A device of that name and kind.
    public init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }

    /// Devices are equal by name and kind.
    public static func == (a: PointerDevice, b: PointerDevice) -> Bool { a.name == b.name && a.kind == b.kind }

    /// What `devices = "..."` on a recognizer means: a kind (`touchpad`, `touchscreen`, `mouse`,
    /// `other`), `name=GLOB`, or else a glob on the name.
    public func matches(_ selector: String) -> Bool {
        if ["touchpad", "touchscreen", "mouse", "other"].contains(selector) { return kind == selector }
        let glob = selector.hasPrefix("name=") ? String(selector.dropFirst(5)) : selector
        return Self.glob(glob, matches: name)
    }

    /// Shell-style glob (`*`, `?`, `[...]`), case-sensitive, on the whole text.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        func match(_ i: Int, _ j: Int) -> Bool {
            var i = i, j = j
            while i < p.count {
                switch p[i] {
                case "*":
                    while i < p.count, p[i] == "*" { i += 1 }
                    if i == p.count { return true }
                    for k in j...t.count where match(i, k) { return true }
                    return false
                case "?":
                    guard j < t.count else { return false }
                case "[":
                    guard j < t.count, let close = p[(i + 1)...].firstIndex(of: "]") else { return false }
                    var set = Array(p[(i + 1)..<close])
                    let negate = set.first == "!" || set.first == "^"
                    if negate { set.removeFirst() }
                    var found = false, k = 0
                    while k < set.count {
                        if k + 2 < set.count, set[k + 1] == "-" {
                            if set[k] <= t[j] && t[j] <= set[k + 2] { found = true }
                            k += 3
                        } else {
                            if set[k] == t[j] { found = true }
                            k += 1
                        }
                    }
                    guard found != negate else { return false }
                    i = close
                default:
                    guard j < t.count, p[i] == t[j] else { return false }
                }
                i += 1
                j += 1
            }
            return j == t.count
        }
        return match(0, 0)
    }
}
