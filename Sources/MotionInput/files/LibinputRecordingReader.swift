/// Reads `libinput record` YAML (version 1) with a focused line reader instead of a YAML library:
/// the format is machine-written with fixed indentation, and reading it line by line keeps memory
/// constant for long recordings.
///
/// Layout: top-level `version: 1` and `devices:`; each device `- node:` with an `evdev:` block
/// (`name`, `id`, `codes`, `absinfo` as `code: [min, max, fuzz, flat, resolution]`, `properties`) and
/// `events:`, a list of `- evdev:` blocks of `- [sec, usec, type, code, value]` rows (other blocks,
/// such as `- libinput:`, are skipped). With several devices, the first one with touch or pointer axes
/// (ABS_MT_POSITION_X, ABS_X, or REL_X + REL_Y) is decoded and the others are ignored.
public final class LibinputRecordingReader: EvdevFileSource {
    private let reader: LineReader
    /// Indentation of the `- node:` items, and of the chosen device's keys (items + 2).
    private let deviceIndent: Int
    private var inEvdevBlock = false
    private var done = false

    public convenience init(path: String, options: EventFileOptions = EventFileOptions()) throws {
        try self.init(input: InputBytes(path: path), options: options)
    }

    init(input: InputBytes, options: EventFileOptions = EventFileOptions()) throws {
        let reader = LineReader(input: input)
        self.reader = reader
        var header = Header()
        while true {
            var failure: String?
            let more: Void? = try reader.nextLine { line in
                do { try header.consume(line, number: reader.lineNumber) } catch let f as Header.Failure { failure = f.message }
            }
            if let failure { throw InputError(file: reader.path, line: reader.lineNumber, failure) }
            if more == nil {
                if header.sawDevices { header.endDevice() }
                break
            }
            if header.chosen != nil { break }
        }
        guard header.sawDevices else {
            throw InputError(file: reader.path, "not a libinput recording: no top-level 'devices:' list (expected the output of 'libinput record')")
        }
        guard let chosen = header.chosen else {
            if let line = header.pointerDeviceWithoutEvents {
                throw InputError(file: reader.path, line: line, "device with touch or pointer axes has no 'events:' list")
            }
            throw InputError(file: reader.path, "libinput recording has no device with touch or pointer axes")
        }
        deviceIndent = header.itemIndent
        super.init(path: reader.path, decoder: EvdevDecoder(device: chosen, options: options))
    }

    /// The part before the chosen device's `events:`: top-level keys and device descriptions.
    private struct Header {
        struct Failure: Error { let message: String }
        var sawVersion = false
        var sawDevices = false
        var itemIndent = -1
        var device = DeviceDescription()
        var inDevice = false
        var deviceKey = ""
        var evdevKey = ""
        var skippingEvents = false
        var chosen: DeviceDescription?
        var deviceLine = 0
        var deviceHasEvents = false
        /// The line of the first device with pointer axes and no `events:` key (a misspelling).
        var pointerDeviceWithoutEvents: Int?

        /// Ends the device being read: remembers a pointer device that had no events list.
        mutating func endDevice() {
            if inDevice, !deviceHasEvents, device.hasPointerAxes, pointerDeviceWithoutEvents == nil {
                pointerDeviceWithoutEvents = deviceLine
            }
            inDevice = false
        }

        mutating func consume(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws {
            guard let indent = try LibinputRecordingReader.indentation(line) else { return }
            if indent == line.count || line[indent] == 35 { return }
            let text = UnsafeBufferPointer(rebasing: line[indent...])
            if !sawDevices {
                guard indent == 0 else { return }
                if text.hasPrefix("version:") {
                    var s = ByteScanner(text, at: 8)
                    guard let v = s.integer(), s.atEndOrComment() else { throw Failure(message: "malformed 'version:' line") }
                    guard v == 1 else { throw Failure(message: "unsupported libinput recording version \(v) (expected 1)") }
                    sawVersion = true
                } else if text.hasPrefix("devices:") {
                    guard sawVersion else {
                        throw Failure(message: "not a libinput recording: 'devices:' without a preceding 'version: 1'")
                    }
                    sawDevices = true
                } else if text[0] == 45 || !text.contains(58) {
                    throw Failure(message: "not a libinput recording: expected top-level keys such as 'version: 1' and 'devices:'")
                }
                return
            }
            if text.hasPrefix("- ") && (itemIndent < 0 || indent == itemIndent) {
                if itemIndent < 0 { itemIndent = indent }
                endDevice()
                device = DeviceDescription()
                inDevice = true
                deviceLine = number
                deviceHasEvents = false
                skippingEvents = false
                deviceKey = ""
                return
            }
            if indent <= itemIndent || indent == 0 {
                // `libinput record` writes the device list last: anything else here is not its output.
                throw Failure(message: "unexpected line at column \(indent + 1) in the device list (expected '- node:' items)")
            }
            guard inDevice else { return }
            let keyIndent = itemIndent + 2
            if indent == keyIndent && text[0] != 45 {
                deviceKey = Self.key(text)
                evdevKey = ""
                if deviceKey == "events" {
                    deviceHasEvents = true
                    if device.hasPointerAxes { chosen = device }
                }
                return
            }
            guard deviceKey == "evdev", indent > keyIndent else { return }
            if indent == keyIndent + 2 {
                evdevKey = Self.key(text)
                var s = ByteScanner(text, at: evdevKey.utf8.count + 1)
                switch evdevKey {
                case "name":
                    var name = s.rest()
                    if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
                    device.name = name
                case "id":
                    let ids = try Self.list(&s, "id")
                    if ids.count == 4 {
                        (device.bus, device.vendor, device.product, device.version) = (UInt16(truncatingIfNeeded: ids[0]), UInt16(truncatingIfNeeded: ids[1]), UInt16(truncatingIfNeeded: ids[2]), UInt16(truncatingIfNeeded: ids[3]))
                    }
                case "properties":
                    for p in try Self.list(&s, "properties") { device.properties.insert(Int(p)) }
                default:
                    break
                }
            } else if indent == keyIndent + 4, evdevKey == "codes" || evdevKey == "absinfo" {
                var s = ByteScanner(text)
                guard let code = s.integer(), code >= 0, code <= 0x2ff, s.take(58) else {
                    throw Failure(message: "malformed '\(evdevKey)' entry: expected 'code: [...]'")
                }
                let values = try Self.list(&s, evdevKey)
                if evdevKey == "codes" {
                    for c in values where c >= 0 && c <= 0x2ff { device.add(type: UInt16(code), code: UInt16(c)) }
                } else {
                    guard values.count == 5, values.allSatisfy({ Int32(exactly: $0) != nil }) else {
                        throw Failure(message: "malformed 'absinfo' entry: expected 'code: [min, max, fuzz, flat, resolution]'")
                    }
                    device.absinfo[UInt16(code)] = AbsInfo(minimum: Int32(values[0]), maximum: Int32(values[1]),
                                                          fuzz: Int32(values[2]), flat: Int32(values[3]), resolution: Int32(values[4]))
                }
            }
        }

        static func key(_ text: UnsafeBufferPointer<UInt8>) -> String {
            let end = text.firstIndex(of: 58) ?? text.count
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<end]), as: UTF8.self)
        }

        /// `[a, b, c]` of integers, then an optional comment.
        static func list(_ s: inout ByteScanner, _ what: String) throws -> [Int64] {
            guard s.take(91) else { throw Failure(message: "malformed '\(what)': expected '[...]'") }
            var values: [Int64] = []
            if s.take(93) { return values }
            repeat {
                guard let v = s.integer() else { throw Failure(message: "malformed '\(what)': expected integers in '[...]'") }
                values.append(v)
            } while s.take(44)
            guard s.take(93), s.atEndOrComment() else { throw Failure(message: "malformed '\(what)': expected ']'") }
            return values
        }
    }

    /// Blocks `libinput record` writes in the events list; only `evdev` ones are decoded.
    static let knownEventItems: Set<String> = ["evdev", "libinput", "hid", "hidraw", "udev"]

    /// `evdev` from `- evdev:` (or the text up to the end for anything else).
    static func eventItem(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var start = 1
        while start < text.count, text[start] == 32 { start += 1 }
        var end = start
        while end < text.count, text[end] != 58, text[end] != 32 { end += 1 }
        let colon = end < text.count && text[end] == 58
        return String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self) + (colon ? "" : "?")
    }

    /// The number of leading spaces; nil for a blank line. YAML indents with spaces only: a tab in
    /// the indentation is an error (it would silently move rows out of their block).
    static func indentation(_ line: UnsafeBufferPointer<UInt8>) throws -> Int? {
        var indent = 0
        while indent < line.count, line[indent] == 32 || line[indent] == 9 {
            if line[indent] == 9 {
                // Blank and comment lines may hold tabs: they carry no structure.
                guard let first = line[(indent + 1)...].firstIndex(where: { $0 != 32 && $0 != 9 }) else { return nil }
                if line[first] == 35 { return first }
                throw Header.Failure(message: "tab in indentation (YAML indents with spaces)")
            }
            indent += 1
        }
        if indent == line.count { return nil }
        return indent
    }

    static let rowSyntax = "malformed libinput event row: expected '- [sec, usec, type, code, value]'"

    override func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        while !done, let line = try reader.next() {
            // The fast path: a row of an evdev block, as `libinput record` writes it.
            var spaces = 0
            while spaces < line.count, line[spaces] == 32 { spaces += 1 }
            if inEvdevBlock, spaces > deviceIndent + 2,
               let event = LibinputEventRow.parse(UnsafeBufferPointer(rebasing: line[spaces...])) {
                return (event, reader.lineNumber)
            }
            do {
                if let event = try event(in: line) { return (event, reader.lineNumber) }
            } catch let f as Header.Failure {
                throw InputError(file: path, line: reader.lineNumber, f.message)
            }
        }
        return nil
    }

    /// Any line of the events list: the event of a row, or nil for structure (and the end of
    /// this device's events, which sets `done`).
    private func event(in line: UnsafeBufferPointer<UInt8>) throws -> InputEventRecord? {
        guard let indent = try Self.indentation(line) else { return nil }
        if indent == line.count || line[indent] == 35 { return nil }
        let text = UnsafeBufferPointer(rebasing: line[indent...])
        if indent == deviceIndent, text.hasPrefix("- ") {
            done = true  // the next device
            return nil
        }
        if indent <= deviceIndent {
            throw Header.Failure(message: "unexpected line at column \(indent + 1) in the events (expected '- evdev:' items of '[sec, usec, type, code, value]' rows)")
        }
        if indent == deviceIndent + 2 && text[0] != 45 {
            done = true  // another key of this device
            return nil
        }
        if indent == deviceIndent + 2 {
            if text.hasPrefix("- evdev:") {
                inEvdevBlock = true  // every frame: no string for the common item
                return nil
            }
            let item = Self.eventItem(text)
            guard Self.knownEventItems.contains(item) else {
                throw Header.Failure(message: "unknown item '\(item)' in the events (expected '- evdev:')")
            }
            inEvdevBlock = item == "evdev"
            return nil
        }
        guard inEvdevBlock else { return nil }
        guard let event = Self.parseRowGenerally(text) else { throw Header.Failure(message: Self.rowSyntax) }
        return event
    }

    /// `- [sec, usec, type, code, value]` in every spelling rows may have (signs, any spacing);
    /// `text` starts at the `-`.
    static func parseRowGenerally(_ text: UnsafeBufferPointer<UInt8>) -> InputEventRecord? {
        guard text.hasPrefix("- [") else { return nil }
        var s = ByteScanner(text, at: 3)
        guard let sec = s.integer(), s.take(44), let usec = s.integer(), s.take(44),
              let type = s.integer(), type >= 0, type <= 0xffff, s.take(44),
              let code = s.integer(), code >= 0, code <= 0xffff, s.take(44),
              let value = s.integer(), let v32 = Int32(exactly: value), s.take(93), s.atEndOrComment() else {
            return nil
        }
        return InputEventRecord(sec: sec, usec: usec, type: UInt16(type), code: UInt16(code), value: v32)
    }
}
