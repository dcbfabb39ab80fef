import MotionGestures

/// Reads the JSON Lines event format: one pointer change a line,
/// `{"t":0.0,"id":1,"phase":"down","x":100,"y":200}`; lines with equal `t` form one frame.
/// Blank lines are skipped. Errors carry `file:line`.
public final class JSONLinesReader: FrameSource {
    private let reader: LineReader
    private var pending: (event: PointerEvent, line: Int)?
    private var firstTime: Double?
    private var lastTime = -Double.infinity
    private var down: Set<Int> = []
    private var positions: [Int: (x: Double, y: Double)] = [:]

    public init(path: String) throws {
        reader = try LineReader(path: path)
    }

    public var path: String { reader.path }

    public func nextFrame() throws -> Frame? {
        guard let first = try pending ?? nextEvent() else { return finalCancel() }
        pending = nil
        var events = [first.event]
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

    /// Pointers still down at the end of input are cancelled, so no gesture is left hanging.
    private func finalCancel() -> Frame? {
        guard !down.isEmpty, let firstTime else { return nil }
        let t = lastTime - firstTime
        let events = down.sorted().map { PointerEvent(t: t, id: $0, phase: .cancel, x: positions[$0]?.x ?? 0, y: positions[$0]?.y ?? 0) }
        down.removeAll()
        return Frame(t: t, events: events)
    }

    private func nextEvent() throws -> (event: PointerEvent, line: Int)? {
        while true {
            var blank = false
            let parsed: PointerEvent?? = try reader.nextLine { bytes -> PointerEvent? in
                if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) {
                    blank = true
                    return nil
                }
                return try parse(bytes)
            }
            guard let parsed else { return nil }  // end of file
            if blank { continue }
            guard var event = parsed else { continue }
            let line = reader.lineNumber
            if event.t < lastTime {
                throw InputError(file: path, line: line, "time goes backwards: t=\(event.t) after t=\(lastTime)")
            }
            lastTime = event.t
            if firstTime == nil { firstTime = event.t }
            event.t -= firstTime!
            switch event.phase {
            case .down:
                if !down.insert(event.id).inserted {
                    throw InputError(file: path, line: line, "pointer \(event.id) goes down twice without going up")
                }
            case .move:
                if !down.contains(event.id) {
                    throw InputError(file: path, line: line, "move for pointer \(event.id), which is not down")
                }
            case .up, .cancel:
                if down.remove(event.id) == nil {
                    throw InputError(file: path, line: line, "\(event.phase.rawValue) for pointer \(event.id), which is not down")
                }
            }
            if event.phase == .down || event.phase == .move { positions[event.id] = (event.x, event.y) }
            return (event, line)
        }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> PointerEvent {
        var t: Double?, id: Double?, x: Double?, y: Double?
        var phase: PointerPhase?
        let line = reader.lineNumber
        do {
            try FlatJSON.parse(bytes) { key, value in
                switch (key, value) {
                case ("t", .number(let v)): t = v
                case ("id", .number(let v)): id = v
                case ("x", .number(let v)): x = v
                case ("y", .number(let v)): y = v
                case ("phase", .string(let s)):
                    guard let p = PointerPhase(rawValue: s) else {
                        throw FlatJSON.Failure(message: "unknown phase \"\(s)\" (expected down, move, up or cancel)")
                    }
                    phase = p
                case ("t", _), ("id", _), ("x", _), ("y", _):
                    throw FlatJSON.Failure(message: "field \"\(key)\" must be a number")
                case ("phase", _):
                    throw FlatJSON.Failure(message: "field \"phase\" must be a string")
                default:
                    break  // extra fields are allowed (comments, pressure, ...)
                }
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
        guard id == id.rounded(), abs(id) < 1e15 else {
            throw InputError(file: path, line: line, "field \"id\" must be an integer")
        }
        return PointerEvent(t: t, id: Int(id), phase: phase, x: x, y: y)
    }
}
