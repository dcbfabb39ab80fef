import MotionGestures

/// Reads evemu recordings (`evemu-record`, and `motionscript record`): `#` comments, a device
/// description (`N:` name, `I:` ids, `P:` properties, `B:` code bitmaps, `A:` axis ranges; evemu 1.1
/// `A:` lines lack the resolution) and `E: sec.usec type code value` lines, streamed line by line.
/// `# motionscript: {"app":…}` comments (`motionscript record` with a desktop provider) are focus
/// changes, applied from the next event on (`AppComment`).
/// Malformed lines are errors with `file:line`.
public final class EvemuReader: EvdevFileSource {
    private let reader: LineReader
    private var firstEvent: (event: InputEventRecord, place: Int)?

    public convenience init(path: String, options: EventFileOptions = EventFileOptions()) throws {
        try self.init(input: InputBytes(path: path), options: options)
    }

    init(input: InputBytes, options: EventFileOptions = EventFileOptions()) throws {
        reader = LineReader(input: input)
        var device = DeviceDescription()
        var bitmaps: [UInt16: [UInt8]] = [:]
        var properties: [UInt8] = []
        var first: (InputEventRecord, Int)?
        var focus: [FocusChange] = []
        var keptKind: String?
        let path = reader.path
        while first == nil {
            var failure: String?
            let more: Void? = try reader.nextLine { line in
                if !line.isEmpty, line[0] == 35, line.starts(with: EvemuWriter.keptDeviceMarker.utf8) {
                    keptKind = String(decoding: line.dropFirst(EvemuWriter.keptDeviceMarker.utf8.count), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    return
                }
                // A CR inside a line (the reader drops a trailing one): lines that end in CR alone
                // would otherwise read as one comment, or one device name, and no events.
                if line.contains(13) { failure = Self.carriageReturnLines; return }
                if let comment = AppComment.parse(line) {
                    switch comment {
                    case .success(let change): focus.append(change)
                    case .failure(let error): failure = error.message
                    }
                    return
                }
                if line.isEmpty || line[0] == 35 || line.allSatisfy({ $0 == 32 || $0 == 9 }) { return }
                if line.hasPrefix("E:") {
                    guard let e = Self.parseEvent(line) else { failure = Self.eventSyntax; return }
                    first = (e, 0)
                    return
                }
                var s = ByteScanner(line, at: 2)
                if line.hasPrefix("N:") {
                    device.name = s.rest()
                } else if line.hasPrefix("I:") {
                    var ids: [UInt16] = []
                    while let v = s.integer(radix: 16), v >= 0, v <= 0xffff { ids.append(UInt16(v)) }
                    guard ids.count == 4, s.atEndOrComment() else { failure = "malformed evemu line: expected 'I: bus vendor product version' (hex)"; return }
                    (device.bus, device.vendor, device.product, device.version) = (ids[0], ids[1], ids[2], ids[3])
                } else if line.hasPrefix("P:") {
                    guard let bytes = Self.hexBytes(&s) else { failure = "malformed evemu line: expected 'P:' followed by hex bytes (00 to ff)"; return }
                    properties.append(contentsOf: bytes)
                    // Properties are numbered like codes: more bytes than a bitmap can hold mean nothing.
                    guard properties.count <= DeviceDescription.maxBitmapBytes else {
                        failure = "evemu 'P:' lines hold more than \(DeviceDescription.maxBitmapBytes) bytes"; return
                    }
                } else if line.hasPrefix("B:") {
                    guard let type = s.integer(radix: 16), type >= 0, type < 0x20 else { failure = "malformed evemu line: expected 'B: type bytes...' (hex)"; return }
                    guard let bytes = Self.hexBytes(&s) else { failure = "malformed evemu line: expected 'B: type bytes...' (hex bytes 00 to ff)"; return }
                    bitmaps[UInt16(type), default: []].append(contentsOf: bytes)
                    // Codes are 16-bit, so a longer bitmap cannot be a device's.
                    guard bitmaps[UInt16(type)]!.count <= DeviceDescription.maxBitmapBytes else {
                        failure = "evemu 'B:' lines for type \(type) hold more than \(DeviceDescription.maxBitmapBytes) bytes (codes are 16-bit)"; return
                    }
                } else if line.hasPrefix("A:") {
                    guard let code = s.integer(radix: 16), code >= 0, code < 0x40 else { failure = Self.absSyntax; return }
                    var values: [Int32] = []
                    while let v = s.integer(), let v32 = Int32(exactly: v) { values.append(v32) }
                    guard values.count == 4 || values.count == 5, s.atEndOrComment() else { failure = Self.absSyntax; return }
                    device.absinfo[UInt16(code)] = AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                                                          resolution: values.count == 5 ? values[4] : 0)
                } else if line.hasPrefix("S:") {
                    // Event-less "S:" (switch state) lines in some versions: nothing to decode.
                } else {
                    failure = "malformed evemu line: expected a description line (N:, I:, P:, B:, A:) or an event (E:)"
                }
            }
            if let failure { throw InputError(file: path, line: reader.lineNumber, failure) }
            if more == nil { break }
        }
        for (type, bitmap) in bitmaps { device.setBits(type: type, bitmap: bitmap) }
        if !properties.isEmpty {
            for (i, byte) in properties.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 { device.properties.insert(i * 8 + bit) }
            }
        }
        if let first { firstEvent = (first.0, reader.lineNumber) }
        let decoder = EvdevDecoder(device: device, options: options)
        // A recording that keeps its device names it in every pointer event, as it was live.
        if let keptKind, !keptKind.isEmpty { decoder.deviceTag = PointerDevice(name: device.name, kind: keptKind) }
        super.init(path: path, decoder: decoder)
        focusBeforeNextEvent = focus
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
            return first
        }
        while let line = try reader.next() {
            if line.count >= 2, line[0] == 69, line[1] == 58 {  // "E:"
                guard let event = Self.parseEvent(line) else {
                    throw InputError(file: path, line: reader.lineNumber, Self.eventSyntax)
                }
                return (event, reader.lineNumber)
            }
            if let comment = AppComment.parse(line) {
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
