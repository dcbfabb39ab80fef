import MotionGestures

/// Reads the JSON Lines event format: one pointer change a line,
/// `{"t":0.0,"id":1,"phase":"down","x":100,"y":200}`; lines with equal `t` form one frame.
/// Blank lines are skipped. Errors carry `file:line`.
public final class JSONLinesReader: FrameSource {
    private let reader: LineReader
    private var pending: (event: PointerEvent, line: Int)?
    private var firstTime: Double?
    private var lastTime = -Double.infinity
    /// Pointers down now, with their last position (for the final cancel).
    private var down: [Int: (x: Double, y: Double)] = [:]
    /// Where the pointer that moved last sits in `down`: most lines move the same pointer as the
    /// line before, which then costs no hashing. Forgotten whenever `down` gains or loses a key
    /// (which moves its entries).
    private var lastMoved: (id: Int, index: Dictionary<Int, (x: Double, y: Double)>.Index)?
    /// The smallest step between two frames' times so far, and the frames read: a file whose
    /// frames are all seconds apart was most likely written in milliseconds (`timeUnitHint`).
    private var smallestStep = Double.infinity
    private var frameCount = 0
    /// The line of the frame last returned (0: the end-of-input cancel).
    private var frameLine = 0
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
        guard let first = try pending ?? nextEvent() else { return finalCancel() }
        if frameCount > 0 { smallestStep = min(smallestStep, first.event.t - previousFrameTime) }
        previousFrameTime = first.event.t
        frameCount += 1
        pending = nil
        frameLine = first.line
        events.removeAll(keepingCapacity: true)
        events.append(first.event)
        while let next = try nextEvent() {
            if next.event.t == first.event.t {
                events.append(next.event)
            } else {
                pending = next
                break
            }
        }
        return Frame(t: first.event.t, events: events)
    }

    private var previousFrameTime = 0.0

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

    private func nextEvent() throws -> (event: PointerEvent, line: Int)? {
        while let bytes = try reader.next() {
            if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            var event = try parse(bytes)
            let line = reader.lineNumber
            if event.t < lastTime {
                throw InputError(file: path, line: line, "time goes backwards: t=\(event.t) after t=\(lastTime)")
            }
            if firstTime == nil { firstTime = event.t }
            let t = event.t - firstTime!
            if let problem = InputTime.problem(t, after: 0) {
                throw InputError(file: path, line: line, problem)
            }
            lastTime = event.t
            event.t = t
            switch event.phase {
            case .down:
                lastMoved = nil
                if down.updateValue((event.x, event.y), forKey: event.id) != nil {
                    throw InputError(file: path, line: line, "pointer \(event.id) goes down twice without going up")
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
            return (event, line)
        }
        return nil
    }

    private static func notANumber(_ field: String) throws -> Double {
        throw FlatJSON.Failure(message: "field \"\(field)\" must be a number")
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> PointerEvent {
        let f = try JSONLinesEventLine.parse(bytes) ?? parseGenerally(bytes)
        guard f.id == f.id.rounded(), abs(f.id) < 1e15 else {
            throw InputError(file: path, line: reader.lineNumber, "field \"id\" must be an integer")
        }
        return PointerEvent(t: f.t, id: Int(f.id), phase: f.phase, x: f.x, y: f.y)
    }

    /// Any object: extra fields, escapes, exponents; every error with its reason.
    func parseGenerally(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONLinesFields {
        var t: Double?, id: Double?, x: Double?, y: Double?
        var phase: PointerPhase?
        let line = reader.lineNumber
        do {
            try FlatJSON.parse(bytes) { key, value in
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
        return JSONLinesFields(t: t, id: id, phase: phase, x: x, y: y)
    }
}
