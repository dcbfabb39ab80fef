import MotionGestures

/// Reads evemu recordings (`evemu-record`, and `motionscript record`): `#` comments, a device
/// description (`N:` name, `I:` ids, `P:` properties, `B:` code bitmaps, `A:` axis ranges; evemu 1.1
/// `A:` lines lack the resolution) and `E: sec.usec type code value` lines, streamed line by line.
/// `# motionscript: {"app":…}` comments (`motionscript record` with a desktop provider) are focus
/// changes, applied from the next event on (`AppComment`).
/// A recording of several devices (`# motionscript devices: N`, docs/input.md) holds device 1 as
/// a plain recording, and the lines of devices 2… prefixed with `#K `, which other tools read as
/// comments; their events are in one timestamp order (`FileDeviceTimeline`).
/// Malformed lines are errors with `file:line`.
public final class EvemuReader: EvdevFileSource {
    private let reader: LineReader
    private var firstEvent: (event: InputEventRecord, place: Int, device: Int)?

    public convenience init(path: String, options: EventFileOptions = EventFileOptions()) throws {
        try self.init(input: InputBytes(path: path), options: options)
    }

    init(input: InputBytes, options: EventFileOptions = EventFileOptions()) throws {
        reader = LineReader(input: input)
        // Device 1, then devices 2… of a recording of several (`# motionscript devices: N`).
        var devices = [EvemuDeviceLines()]
        var first: (InputEventRecord, Int, device: Int)?
        var focus: [FocusChange] = []
        let path = reader.path
        while first == nil {
            var failure: String?
            let more: Void? = try reader.nextLine { line in
                if let kind = EvemuDeviceLines.keptKind(line) {
                    devices[0].keptKind = kind
                    return
                }
                if line.starts(with: EvemuWriter.devicesMarker.utf8) {
                    guard devices.count == 1 else { failure = "\(EvemuWriter.devicesMarker)… appears twice"; return }
                    var s = ByteScanner(line, at: EvemuWriter.devicesMarker.utf8.count)
                    guard let n = s.integer(), n >= 1, n <= Self.maxDevices, s.atEndOrComment(), let count = Int(exactly: n) else {
                        failure = "malformed motionscript comment: expected '\(EvemuWriter.devicesMarker)N' with N from 1 to \(Self.maxDevices)"; return
                    }
                    devices += Array(repeating: EvemuDeviceLines(), count: count - 1)
                    return
                }
                var line = line
                var device = 0
                if devices.count > 1, let prefixed = Self.deviceLine(line) {
                    guard let k = prefixed.device, k < devices.count else {
                        failure = Self.undeclaredDevice(line, devices.count); return
                    }
                    (line, device) = (prefixed.line, k)
                    if let kind = EvemuDeviceLines.keptKind(line) {
                        devices[k].keptKind = kind
                        return
                    }
                }
                // A CR inside a line (the reader drops a trailing one): lines that end in CR alone
                // would otherwise read as one comment, or one device name, and no events.
                if line.contains(13) { failure = Self.carriageReturnLines; return }
                if device == 0, let comment = AppComment.parse(line) {
                    switch comment {
                    case .success(let change): focus.append(change)
                    case .failure(let error): failure = error.message
                    }
                    return
                }
                if line.isEmpty || line[0] == 35 || line.allSatisfy({ $0 == 32 || $0 == 9 }) { return }
                if line.hasPrefix("E:") {
                    guard let e = Self.parseEvent(line) else { failure = Self.eventSyntax; return }
                    first = (e, 0, device)
                    return
                }
                failure = devices[device].take(line)
            }
            if let failure { throw InputError(file: path, line: reader.lineNumber, failure) }
            if more == nil { break }
        }
        if let first { firstEvent = (first.0, reader.lineNumber, first.device) }
        let decoders = devices.map { lines in
            let decoder = EvdevDecoder(device: lines.described(), options: options)
            // A recording that keeps its device names it in every pointer event, as it was live.
            decoder.deviceTag = lines.tag
            return decoder
        }
        super.init(path: path, decoders: decoders)
        focusBeforeNextEvent = focus
    }

    /// The most devices one recording holds.
    static let maxDevices = 64

    /// A line of device 2, 3… in a recording of several: `#K ` then the line as in a recording
    /// of that device alone (`device`: K − 1; nil when K is not a device number). Nil for
    /// other lines (comments).
    @inline(__always)
    static func deviceLine(_ line: UnsafeBufferPointer<UInt8>) -> (device: Int?, line: UnsafeBufferPointer<UInt8>)? {
        guard line.count >= 3, line[0] == 35, line[1] >= 48, line[1] <= 57 else { return nil }
        var k = 0
        var i = 1
        while i < line.count, line[i] >= 48, line[i] <= 57 {
            if k <= maxDevices { k = k * 10 + Int(line[i] - 48) }
            i += 1
        }
        guard i < line.count, line[i] == 32 else { return nil }
        let rest = UnsafeBufferPointer(rebasing: line[(i + 1)...])
        return (k >= 2 && k <= maxDevices ? k - 1 : nil, rest)
    }

    static func undeclaredDevice(_ line: UnsafeBufferPointer<UInt8>, _ count: Int) -> String {
        let number = String(decoding: line.dropFirst().prefix { $0 >= 48 && $0 <= 57 }.prefix(20), as: UTF8.self)
        return "line of device \(number), but the recording declares \(count) devices ('\(EvemuWriter.devicesMarker)\(count)'; device 1's lines have no '#N ' prefix)"
    }

    /// Hex bytes to the end of the line (or a comment); nil when one is not a byte.
    static func hexBytes(_ s: inout ByteScanner) -> [UInt8]? {
        var bytes: [UInt8] = []
        while !s.atEndOrComment() {
            guard let v = s.integer(radix: 16), v >= 0, v <= 0xff else { return nil }
            bytes.append(UInt8(v))
        }
        return bytes
    }

    static let carriageReturnLines = "carriage return (CR) inside a line: lines end in CR alone? evemu recordings end lines with LF (convert with: tr '\\r' '\\n')"
    static let eventSyntax = "malformed evemu event: expected 'E: sec.usec type code value' (type and code hex, value decimal)"
    static let absSyntax = "malformed evemu line: expected 'A: code min max fuzz flat [resolution]' (code hex)"

    /// `E: 1284881103.697884 0003 0039 -001` with an optional `\t# comment`.
    static func parseEvent(_ line: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        EvemuEventLine.parse(line) ?? parseEventGenerally(line)
    }

    /// Every spelling `parseEvent` accepts (signs, `0x`, any number of digits and spaces).
    static func parseEventGenerally(_ line: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        var s = ByteScanner(line, at: 2)
        guard let sec = s.integer(), sec >= 0, s.take(46), let usec = s.fraction(places: 6),
              let type = s.integer(radix: 16), type >= 0, type <= 0xffff,
              let code = s.integer(radix: 16), code >= 0, code <= 0xffff,
              let value = s.integer(), let v32 = Int32(exactly: value),
              s.atEndOrComment() else { return nil }
        return InputEventRecord(sec: sec, usec: usec, type: UInt16(type), code: UInt16(code), value: v32)
    }

    override func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        if let first = firstEvent {
            firstEvent = nil
            eventDevice = first.device
            return (first.event, first.place)
        }
        while var line = try reader.next() {
            var device = 0
            if decoders.count > 1, let prefixed = Self.deviceLine(line) {
                guard let k = prefixed.device, k < decoders.count else {
                    throw InputError(file: path, line: reader.lineNumber, Self.undeclaredDevice(line, decoders.count))
                }
                (line, device) = (prefixed.line, k)
            }
            if line.count >= 2, line[0] == 69, line[1] == 58 {  // "E:"
                guard let event = Self.parseEvent(line) else {
                    throw InputError(file: path, line: reader.lineNumber, Self.eventSyntax)
                }
                eventDevice = device
                return (event, reader.lineNumber)
            }
            if device == 0, let comment = AppComment.parse(line) {
                switch comment {
                case .success(let change): focusBeforeNextEvent.append(change)
                case .failure(let error): throw InputError(file: path, line: reader.lineNumber, error.message)
                }
                continue
            }
            if !(line.isEmpty || line[0] == 35 || line.allSatisfy({ $0 == 32 || $0 == 9 })) {
                throw InputError(file: path, line: reader.lineNumber, "malformed evemu line: expected an event (E:) after the first event")
            }
        }
        return nil
    }
}
