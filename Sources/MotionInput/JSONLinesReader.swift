import MotionGestures
import MotionJSON

/// Reads the JSON Lines event format: one pointer change a line,
/// `{"t":0.0,"id":1,"phase":"down","x":100,"y":200}`; lines with equal `t` form one frame.
/// A line `{"t":1.5,"app":{"id":"firefox","title":"…"}}` (or `"app":"firefox"`, or
/// `"app":null` for no focused window) is a change of the focused application: a frame of its
/// own (`Frame.focus`). Blank lines are skipped. Errors carry `file:line`.
public final class JSONLinesReader: FrameSource {
    private let reader: LineReader
    private var pending: PointerEvent?
    /// An app line read (its time relative, as frames'): it ends the frame being gathered and
    /// comes out as a frame of its own. Kept beside the pointer path, which stays as it was.
    private var pendingFocus: (t: Double, app: AppInfo?)?
    /// The app of the line `parse` just read as an app line, with its absolute time.
    private var appLine: (t: Double, app: AppInfo?)?
    private var firstTime: Double?
    private var lastTime = -Double.infinity
    /// Pointers down now, with their last position (for the final cancel).
    private var down: [Int: (x: Double, y: Double)] = [:]
    /// Where the pointer that moved last sits in `down`: most lines move the same pointer as the
    /// line before, which then costs no hashing. Forgotten whenever `down` gains or loses a key
    /// (which moves its entries).
    private var lastMoved: (id: Int, index: Dictionary<Int, (x: Double, y: Double)>.Index)?
    /// Pointers down at once at most: recognizers cost O(N²) in them, and recordings of real
    /// devices (evemu, libinput) stop at 1,024 slots (`ProtocolBSlots.maxSlotsInUse`).
    public static let maxPointersDown = 1024
    /// The smallest step between two frames' times so far, and the frames read: a file whose
    /// frames are all seconds apart was most likely written in milliseconds (`timeUnitHint`).
    private var smallestStep = Double.infinity
    private var frameCount = 0
    private var previousFrameTime = 0.0
    /// The line of the frame last returned (0: the end-of-input cancel); of the event (or app
    /// line) `nextEvent` read last; of the event held in `pending` and of `pendingFocus`.
    private var frameLine = 0
    private var eventLine = 0
    private var pendingLine = 0
    private var focusLine = 0
    /// Reused for every frame: once the caller has let go of the last frame, no allocation.
    private var events: [PointerEvent] = []

    public convenience init(path: String) throws {
        try self.init(input: InputBytes(path: path))
    }

    init(input: InputBytes) {
        reader = LineReader(input: input)
    }

    public var path: String { reader.path }

    public func nextFrame() throws -> Frame? {
        if let focus = pendingFocus {
            pendingFocus = nil
            frameLine = focusLine
            return Frame(t: focus.t, focus: FocusChange(app: focus.app))
        }
        let held = pending
        guard let first = try held ?? nextEvent() else {
            // An app line (or the end of input).
            return pendingFocus == nil ? finalCancel() : try nextFrame()
        }
        frameLine = held == nil ? eventLine : pendingLine
        pending = nil
        if frameCount > 0 { smallestStep = min(smallestStep, first.t - previousFrameTime) }
        previousFrameTime = first.t
        frameCount += 1
        events.removeAll(keepingCapacity: true)
        events.append(first)
        // Until a line of another time, an app line (nil, `pendingFocus` set) or the end.
        while let next = try nextEvent() {
            if next.t == first.t {
                events.append(next)
            } else {
                pending = next
                pendingLine = eventLine
                break
            }
        }
        return Frame(t: first.t, events: events)
    }

    /// Frames of pointer input come 4 to 20 ms apart; when every step between frames is 4 or
    /// more, `t` was most likely written in milliseconds (it is in seconds). Nil otherwise.
    public var timeUnitHint: String? {
        guard frameCount >= 3, smallestStep >= 4 else { return nil }
        return "note: \(path): every frame is at least \(smallestStep == smallestStep.rounded() && smallestStep < 1e15 ? String(Int(smallestStep)) : String(smallestStep)) s after the one before: is \"t\" in milliseconds? It is in seconds (divide by 1000)"
    }

    public var framePlace: String? { frameLine > 0 ? "\(path):\(frameLine)" : "\(path): end of input" }

    /// Pointers still down at the end of input are cancelled, so no gesture is left hanging.
    private func finalCancel() -> Frame? {
        guard !down.isEmpty, let firstTime else { return nil }
        frameLine = 0
        let t = lastTime - firstTime
        let events = down.keys.sorted().map { PointerEvent(t: t, id: $0, phase: .cancel, x: down[$0]!.x, y: down[$0]!.y) }
        down.removeAll()
        lastMoved = nil
        return Frame(t: t, events: events)
    }

    /// The next pointer event; nil at the end of input or after an app line (then in `pendingFocus`).
    private func nextEvent() throws -> PointerEvent? {
        while let bytes = try reader.next() {
            if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            let parsed = try parse(bytes)
            let line = reader.lineNumber
            eventLine = line
            let lineTime = parsed?.t ?? appLine?.t ?? 0
            if lineTime < lastTime {
                throw InputError(file: path, line: line, "time goes backwards: t=\(lineTime) after t=\(lastTime)")
            }
            if firstTime == nil { firstTime = lineTime }
            let t = lineTime - firstTime!
            if let problem = InputTime.problem(t, after: 0) {
                throw InputError(file: path, line: line, problem)
            }
            lastTime = lineTime
            guard var event = parsed else {
                pendingFocus = (t, appLine?.app)
                focusLine = line
                appLine = nil
                return nil
            }
            event.t = t
            switch event.phase {
            case .down:
                lastMoved = nil
                if down.updateValue((event.x, event.y), forKey: event.id) != nil {
                    throw InputError(file: path, line: line, "pointer \(event.id) goes down twice without going up")
                }
                if down.count > Self.maxPointersDown {
                    throw InputError(file: path, line: line, "more than \(Self.maxPointersDown) pointers down at once (pointer \(event.id) goes down); recordings of real devices stop at \(Self.maxPointersDown) slots")
                }
            case .move:
                if let last = lastMoved, last.id == event.id {
                    down.values[last.index] = (event.x, event.y)
                } else if let index = down.index(forKey: event.id) {
                    down.values[index] = (event.x, event.y)
                    lastMoved = (event.id, index)
                } else {
                    throw InputError(file: path, line: line, "move for pointer \(event.id), which is not down")
                }
            case .up, .cancel:
                lastMoved = nil
                if down.removeValue(forKey: event.id) == nil {
                    throw InputError(file: path, line: line, "\(event.phase.rawValue) for pointer \(event.id), which is not down")
                }
            }
            return event
        }
        return nil
    }

    private static func notANumber(_ field: String) throws -> Double {
        throw FlatJSON.Failure(message: "field \"\(field)\" must be a number")
    }

    /// A pointer event, or nil for an app line (then in `appLine`).
    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> PointerEvent? {
        let f: JSONLinesFields
        if let fast = JSONLinesEventLine.parse(bytes) {
            f = fast
        } else {
            switch try parseGenerally(bytes) {
            case .fields(let fields): f = fields
            case .app(let t, let app):
                appLine = (t, app)
                return nil
            }
        }
        guard f.id == f.id.rounded(), abs(f.id) < 1e15 else {
            throw InputError(file: path, line: reader.lineNumber, "field \"id\" must be an integer")
        }
        return PointerEvent(t: f.t, id: Int(f.id), phase: f.phase, x: f.x, y: f.y)
    }

    enum GeneralLine: Equatable {
        case fields(JSONLinesFields)
        case app(t: Double, app: AppInfo?)

        /// A pointer event's fields (nil for an app line).
        var fields: JSONLinesFields? {
            if case .fields(let f) = self { return f }
            return nil
        }
    }

    /// Any object: extra fields, escapes, exponents, app lines; every error with its reason.
    func parseGenerally(_ bytes: UnsafeBufferPointer<UInt8>) throws -> GeneralLine {
        var t: Double?, id: Double?, x: Double?, y: Double?
        var phase: PointerPhase?
        var isAppLine = false
        var app: AppInfo?
        let line = reader.lineNumber
        do {
            try FlatJSON.parse(bytes) { key, value in
                if key.equals("app") {
                    isAppLine = true
                    app = try AppLineField.app(value)
                    return
                }
                let number: Double?
                if case .number(let v) = value { number = v } else { number = nil }
                if key.equals("t") {
                    t = try number ?? Self.notANumber("t")
                } else if key.equals("id") {
                    id = try number ?? Self.notANumber("id")
                } else if key.equals("x") {
                    x = try number ?? Self.notANumber("x")
                } else if key.equals("y") {
                    y = try number ?? Self.notANumber("y")
                } else if key.equals("phase") {
                    guard case .string(let text) = value else {
                        throw FlatJSON.Failure(message: "field \"phase\" must be a string")
                    }
                    if text.equals("move") { phase = .move }
                    else if text.equals("down") { phase = .down }
                    else if text.equals("up") { phase = .up }
                    else if text.equals("cancel") { phase = .cancel }
                    else {
                        throw FlatJSON.Failure(message: "unknown phase \"\(text.string)\" (expected down, move, up or cancel)")
                    }
                }
                // Extra fields are allowed (comments, pressure, ...).
            }
        } catch let failure as FlatJSON.Failure {
            throw InputError(file: path, line: line, failure.message)
        } catch let error as JSONSyntaxError {
            throw InputError(file: path, line: line, "not JSON: \(error)")
        }
        if isAppLine {
            guard let t else { throw InputError(file: path, line: line, "missing field \"t\"") }
            return .app(t: t, app: app)
        }
        var missing: [String] = []
        if t == nil { missing.append("t") }
        if id == nil { missing.append("id") }
        if phase == nil { missing.append("phase") }
        if x == nil { missing.append("x") }
        if y == nil { missing.append("y") }
        guard missing.isEmpty, let t, let id, let phase, let x, let y else {
            throw InputError(file: path, line: line, "missing field\(missing.count > 1 ? "s" : "") \(missing.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return .fields(JSONLinesFields(t: t, id: id, phase: phase, x: x, y: y))
    }
}

