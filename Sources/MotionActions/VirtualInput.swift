/// One script's keyboard and mouse: what it holds down, and the events each action writes.
/// Several inputs may share one device (`KeyHolds`): a key goes up when its last holder lets go.
/// The state is kept whether or not a sink is attached, so an action behaves — and reports —
/// the same when it is only printed (replays, tests, `--dry-run`) as when it is performed.
///
/// - `keys(chord)` presses the chord's keys in order, then releases them in reverse, one
///   `SYN_REPORT` after the presses and one after the releases. A key the script already holds
///   (`keyDown("alt")` then `keys("alt+Tab")`) is neither pressed again nor released: it stays
///   held.
/// - `keyDown` / `keyUp` of a key already down / not down write nothing.
/// - Movement and scrolling keep fractions: `move(0.5, 0)` twice moves one unit. Scrolling is in
///   wheel notches, `dy > 0` scrolls down and `dx > 0` right (as web pages count wheel deltas);
///   each notch is also sent as 120 high-resolution units, fractions of a notch in those.
/// - `releaseAll()` lets go of every held key (in reverse order of pressing) and button; keys
///   another input still holds stay down.
public final class VirtualInput {
    private let sink: InputEventSink?
    /// Held keys and buttons, in the order they went down.
    public private(set) var held: [UInt16] = []
    /// The holds of every input sharing the device (see `KeyHolds`).
    public let holds: KeyHolds
    private var moveRemainder = (x: 0.0, y: 0.0)
    private var wheelRemainder = (x: 0.0, y: 0.0)
    private var hiResRemainder = (x: 0.0, y: 0.0)

    /// With a nil sink nothing is written: only the state is kept. Inputs sharing one device
    /// share its `holds`; by default an input has the device to itself.
    public init(sink: InputEventSink?, holds: KeyHolds = KeyHolds()) {
        self.sink = sink
        self.holds = holds
    }

    public func isHeld(_ code: UInt16) -> Bool { held.contains(code) }

    /// A key held by anyone (this input or another sharing the device) is neither pressed
    /// again nor released.
    public func keys(_ chord: Chord) throws {
        let pressed = chord.codes.filter { !holds.isDown($0) }
        guard !pressed.isEmpty else { return }
        try write(pressed.map { .key($0, 1) })
        try write(pressed.reversed().map { .key($0, 0) })
    }

    /// Holds `code`; written to the device only when nobody held it. When the write fails,
    /// nothing is held (no release of a key never pressed follows).
    @discardableResult
    public func down(_ code: UInt16) throws -> Bool {
        guard !held.contains(code) else { return false }
        if !holds.isDown(code) { try write([.key(code, 1)]) }
        holds.add(code)
        held.append(code)
        return true
    }

    /// Lets go of `code`; written to the device only when this was its last holder.
    @discardableResult
    public func up(_ code: UInt16) throws -> Bool {
        guard let index = held.firstIndex(of: code) else { return false }
        held.remove(at: index)
        if holds.remove(code) { try write([.key(code, 0)]) }
        return true
    }

    /// A button this input holds is released; one another input holds stays down (nothing is
    /// written: releasing it would undo that hold).
    public func click(_ code: UInt16) throws {
        if held.contains(code) {
            try up(code)
            return
        }
        guard !holds.isDown(code) else { return }
        try write([.key(code, 1)])
        try write([.key(code, 0)])
    }

    public func move(dx: Double, dy: Double) throws {
        let x = Self.whole(dx, &moveRemainder.x), y = Self.whole(dy, &moveRemainder.y)
        var events: [InputEvent] = []
        if x != 0 { events.append(.rel(InputEvent.relX, x)) }
        if y != 0 { events.append(.rel(InputEvent.relY, y)) }
        if !events.isEmpty { try write(events) }
    }

    public func scroll(dx: Double, dy: Double) throws {
        let notchesY = Self.whole(-dy, &wheelRemainder.y), notchesX = Self.whole(dx, &wheelRemainder.x)
        let hiY = Self.whole(-dy * 120, &hiResRemainder.y), hiX = Self.whole(dx * 120, &hiResRemainder.x)
        var events: [InputEvent] = []
        if notchesY != 0 { events.append(.rel(InputEvent.relWheel, notchesY)) }
        if hiY != 0 { events.append(.rel(InputEvent.relWheelHiRes, hiY)) }
        if notchesX != 0 { events.append(.rel(InputEvent.relHWheel, notchesX)) }
        if hiX != 0 { events.append(.rel(InputEvent.relHWheelHiRes, hiX)) }
        if !events.isEmpty { try write(events) }
    }

    /// Releases everything held, last pressed first; returns what it released, in that order.
    /// Every release is attempted even if writing one fails; the first failure is thrown.
    @discardableResult
    public func releaseAll() throws -> [UInt16] {
        let released = Array(held.reversed())
        held.removeAll()
        // Only the keys nobody else holds go up on the device.
        let lastHolder = released.filter { holds.remove($0) }
        guard !lastHolder.isEmpty else { return released }
        try write(lastHolder.map { .key($0, 0) })
        return released
    }

    /// The whole units of `value + remainder`, keeping the fraction (toward zero) for next time.
    /// Values beyond what an event holds are clamped: a script's number never traps.
    static func whole(_ value: Double, _ remainder: inout Double) -> Int32 {
        guard value.isFinite else { return 0 }
        let total = value + remainder
        let units = total.rounded(.towardZero)
        let clamped = min(max(units, -1_000_000), 1_000_000)
        remainder = total - units
        return Int32(clamped)
    }

    private func write(_ events: [InputEvent]) throws {
        try sink?.write(events + [.synReport])
    }
}
