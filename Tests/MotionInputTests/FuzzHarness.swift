import MotionGestures
@testable import MotionInput

/// What the fuzz targets (scripts/fuzz) run on each input, shared with the regression tests that
/// replay every input that ever found a bug. A harness must never trap: decoding errors are fine,
/// a crash or a broken invariant (`fail`, which throws a `Finding`) is a finding. A finding is
/// thrown, not a `fatalError`: in the test suite it fails the one test that met it, and the
/// libFuzzer entries (fuzz/targets) turn it into the crash libFuzzer records.
///
/// Byte-level targets hand the bytes to one reader. The evdev targets are structure-aware: the
/// bytes drive a generator that writes a valid device description and valid events for one
/// protocol, biased to extreme values (full 32-bit ranges, huge slot maxima, times near 2^63), and
/// decode it as an evemu recording and as a libinput recording: both must agree.
enum FuzzHarness {
    static let targets = ["jsonl", "evemu", "libinput", "raw", "detect", "protocol-a", "protocol-b", "single-touch", "relative"]

    static func run(_ target: String, _ data: [UInt8]) throws {
        switch target {
        case "jsonl":
            try decode(data, .jsonLines)
            try jsonFastPathAgrees(data)
        case "evemu":
            try decode(data, .evemu)
            try fastPathsAgree(data)
        case "libinput":
            try decode(data, .libinput)
            try fastPathsAgree(data)
        case "raw": try decode(data, .raw)
        case "detect": try detect(data)
        case "protocol-a": try generated(data, .a)
        case "protocol-b": try generated(data, .b)
        case "single-touch": try generated(data, .singleTouch)
        case "relative": try generated(data, .relative)
        default: throw Finding(message: "unknown fuzz target \(target)")
        }
    }

    /// For the libFuzzer entries: a finding ends the process, which libFuzzer records.
    static func runOrCrash(_ target: String, _ data: [UInt8]) {
        do { try run(target, data) } catch { fatalError("\(error)") }
    }

    /// A broken invariant: what the input made a reader do that it must never do.
    struct Finding: Error, CustomStringConvertible {
        let message: String
        var description: String { "fuzz invariant broken: \(message)" }
    }

    static func fail(_ message: String) throws -> Never {
        throw Finding(message: message)
    }

    /// `body`'s value, or nil when it threw an input error; a finding goes on up.
    static func ignoringInputErrors<T>(_ body: () throws -> T) throws -> T? {
        do { return try body() } catch let finding as Finding { throw finding } catch { return nil }
    }

    /// Reads every frame, checking what every source promises: times never go backwards, and
    /// each pointer goes down before it moves or lifts.
    @discardableResult
    static func readChecked(_ source: FrameSource) throws -> [Frame] {
        var frames: [Frame] = []
        var down = Set<Int>()
        var last = -Double.infinity
        while let frame = try source.nextFrame() {
            if frame.t < last || !frame.t.isFinite { try fail("frame time \(frame.t) after \(last)") }
            last = frame.t
            for e in frame.events {
                switch e.phase {
                case .down: if !down.insert(e.id).inserted { try fail("pointer \(e.id) down twice") }
                case .move: if !down.contains(e.id) { try fail("move for pointer \(e.id), not down") }
                case .up, .cancel: if down.remove(e.id) == nil { try fail("\(e.phase) for pointer \(e.id), not down") }
                }
            }
            frames.append(frame)
            if frames.count > 100_000 { try fail("more frames than the input could hold") }
        }
        if !down.isEmpty { try fail("pointers \(down.sorted()) still down at the end") }
        return frames
    }

    static func decode(_ data: [UInt8], _ format: EventFileFormat) throws {
        for options in [EventFileOptions(), EventFileOptions(surface: (100, 100))] {
            _ = try ignoringInputErrors { try readChecked(openEventFile(InputBytes(path: "fuzz", bytes: data), options: options, format: format)) }
        }
    }

    /// The fast paths for event lines accept only what the general parsers accept, with the same
    /// values: every line of `data` is tried as an evemu `E:` line and as a libinput row.
    static func fastPathsAgree(_ data: [UInt8]) throws {
        for line in data.split(separator: 10, omittingEmptySubsequences: false) {
            try Array(line).withUnsafeBufferPointer { bytes in
                for fast in [EvemuEventLine.exactLayout(bytes), EvemuEventLine.anySpacing(bytes)] {
                    if let fast, fast != EvemuReader.parseEventGenerally(bytes) {
                        try fail("evemu fast path read \(fast) from \(Array(bytes)), the general parser \(String(describing: EvemuReader.parseEventGenerally(bytes)))")
                    }
                }
                let row = UnsafeBufferPointer(rebasing: bytes[(bytes.firstIndex { $0 != 32 } ?? bytes.count)...])
                if let fast = LibinputEventRow.parse(row), fast != LibinputRecordingReader.parseRowGenerally(row) {
                    try fail("libinput fast path read \(fast) from \(Array(row)), the general parser \(String(describing: LibinputRecordingReader.parseRowGenerally(row)))")
                }
            }
        }
    }

    /// The JSON Lines fast path accepts only lines the general parser reads, to the same bits.
    static func jsonFastPathAgrees(_ data: [UInt8]) throws {
        let reader = JSONLinesReader(input: InputBytes(path: "fuzz", bytes: []))
        for line in data.split(separator: 10, omittingEmptySubsequences: false) {
            try Array(line).withUnsafeBufferPointer { bytes in
                guard let fast = JSONLinesEventLine.parse(bytes) else { return }
                guard let general = try? reader.parseGenerally(bytes) else {
                    try fail("JSON fast path read \(fast) from \(Array(bytes)), which the general parser rejects")
                }
                let bits = { (f: JSONLinesFields) in [f.t.bitPattern, f.id.bitPattern, f.x.bitPattern, f.y.bitPattern] }
                if bits(fast) != bits(general) || fast.phase != general.phase {
                    try fail("JSON fast path read \(fast) from \(Array(bytes)), the general parser \(general)")
                }
            }
        }
    }

    static func detect(_ data: [UInt8]) throws {
        let input = InputBytes(path: "fuzz", bytes: data)
        guard let head = try? input.peek(upTo: 4096, enough: EventFileFormat.isConclusive),
              let format = EventFileFormat.detect(head: head, path: "fuzz") else { return }
        _ = try ignoringInputErrors { try readChecked(openEventFile(input, options: EventFileOptions(), format: format)) }
    }

    // MARK: - Structure-aware evdev generation

    enum EvdevProtocol { case a, b, singleTouch, relative }

    /// Draws values from the fuzz input; zeros once it runs out.
    struct Draw {
        let data: [UInt8]
        var i = 0
        mutating func byte() -> UInt8 {
            defer { i += 1 }
            return i < data.count ? data[i] : 0
        }
        mutating func int(_ bytes: Int) -> UInt64 {
            var v: UInt64 = 0
            for _ in 0..<bytes { v = v << 8 | UInt64(byte()) }
            return v
        }
        var exhausted: Bool { i >= data.count }

        /// An Int32 that is often an edge value.
        mutating func int32() -> Int32 {
            switch byte() % 8 {
            case 0: return .min
            case 1: return .max
            case 2: return 0
            case 3: return -1
            case 4: return Int32(byte() % 16)
            case 5: return Int32(truncatingIfNeeded: int(2)) - 1000
            default: return Int32(truncatingIfNeeded: int(4))
            }
        }

        mutating func range() -> (Int32, Int32) {
            switch byte() % 6 {
            case 0: return (.min, .max)
            case 1: return (0, .max)
            case 2: return (.min, 0)
            case 3: return (0, 1000)
            case 4: let a = int32(); return (a, a)
            default: let a = int32(), b = int32(); return (min(a, b), max(a, b))
            }
        }
    }

    struct Generated {
        var absinfo: [(code: UInt16, min: Int32, max: Int32, res: Int32)] = []
        var keys: [UInt16] = []
        var rels: [UInt16] = []
        var events: [InputEventRecord] = []
    }

    static func generate(_ data: [UInt8], _ kind: EvdevProtocol) -> Generated {
        var d = Draw(data: data)
        var g = Generated()
        let (xmin, xmax) = d.range(), (ymin, ymax) = d.range()
        switch kind {
        case .a:
            g.absinfo = [(ABS.X, xmin, xmax, 0), (ABS.Y, ymin, ymax, 0), (ABS.MT_TOUCH_MAJOR, 0, d.int32(), 0),
                         (ABS.MT_POSITION_X, xmin, xmax, 0), (ABS.MT_POSITION_Y, ymin, ymax, 0)]
            g.keys = [BTN.TOUCH, BTN.TOOL_FINGER]
        case .b:
            let maxSlot: Int32 = [0, 1, 9, 59, .max, 1 << 20][Int(d.byte() % 6)]
            g.absinfo = [(ABS.X, xmin, xmax, 0), (ABS.Y, ymin, ymax, 0), (ABS.MT_SLOT, 0, maxSlot, 0),
                         (ABS.MT_POSITION_X, xmin, xmax, d.int32()), (ABS.MT_POSITION_Y, ymin, ymax, 0), (ABS.MT_TRACKING_ID, 0, 65535, 0)]
            g.keys = [BTN.TOUCH]
        case .singleTouch:
            g.absinfo = [(ABS.X, xmin, xmax, 0), (ABS.Y, ymin, ymax, 0), (ABS.PRESSURE, 0, 255, 0)]
            g.keys = [BTN.TOUCH]
        case .relative:
            g.rels = [REL.X, REL.Y, REL.WHEEL]
            g.keys = [BTN.LEFT, BTN.RIGHT]
        }
        // Time: whole seconds from anywhere in 0...Int64.max, moving forward by small or huge steps.
        var sec = Int64(truncatingIfNeeded: d.int(8) >> 1)
        if d.byte() % 2 == 0 { sec = Int64(d.byte()) }
        var usec = Int64(d.int(3) % 1_000_000)
        func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            g.events.append(InputEventRecord(sec: sec, usec: usec, type: type, code: code, value: value))
        }
        var frames = 0
        while !d.exhausted, frames < 64 {
            frames += 1
            switch d.byte() % 8 {
            case 0: usec = min(usec + 1, 999_999)
            case 1: (sec, usec) = (sec == .max ? sec : sec + 1, 0)
            case 2: let step = Int64(d.int(4)); sec = sec > .max - step ? .max : sec + step
            default: usec = min(usec + Int64(d.int(2)), 999_999)
            }
            let ops = Int(d.byte() % 6)
            for _ in 0...ops {
                switch kind {
                case .a:
                    if d.byte() % 4 == 0 { event(EV.KEY, BTN.TOUCH, Int32(d.byte() % 2)) }
                    let contacts = Int(d.byte() % 4)
                    for _ in 0..<contacts {
                        if d.byte() % 3 == 0 { event(EV.ABS, ABS.MT_TOUCH_MAJOR, d.int32()) }
                        event(EV.ABS, ABS.MT_POSITION_X, d.int32())
                        event(EV.ABS, ABS.MT_POSITION_Y, d.int32())
                        event(EV.SYN, SYN.MT_REPORT, 0)
                    }
                case .b:
                    switch d.byte() % 5 {
                    case 0: event(EV.ABS, ABS.MT_SLOT, d.byte() % 2 == 0 ? Int32(d.byte() % 4) : d.int32())
                    case 1: event(EV.ABS, ABS.MT_TRACKING_ID, d.byte() % 2 == 0 ? Int32(d.byte() % 4) - 1 : d.int32())
                    case 2: event(EV.ABS, ABS.MT_POSITION_X, d.int32())
                    case 3: event(EV.ABS, ABS.MT_POSITION_Y, d.int32())
                    default: event(EV.KEY, BTN.TOUCH, Int32(d.byte() % 2))
                    }
                case .singleTouch:
                    switch d.byte() % 3 {
                    case 0: event(EV.KEY, BTN.TOUCH, Int32(d.byte() % 2))
                    case 1: event(EV.ABS, ABS.X, d.int32())
                    default: event(EV.ABS, ABS.Y, d.int32())
                    }
                case .relative:
                    switch d.byte() % 4 {
                    case 0: event(EV.KEY, BTN.LEFT, Int32(d.byte() % 2))
                    case 1: event(EV.REL, REL.X, d.int32())
                    case 2: event(EV.REL, REL.Y, d.int32())
                    default: event(EV.REL, REL.WHEEL, d.int32())
                    }
                }
            }
            if d.byte() % 16 == 0 { event(EV.SYN, SYN.DROPPED, 0) }
            event(EV.SYN, SYN.REPORT, 0)
        }
        return g
    }

    static func evemuText(_ g: Generated) -> String {
        var out = "# EVEMU 1.3\nN: fuzz device\nI: 0003 0001 0002 0003\nP: 00 00 00 00 00 00 00 00\n"
        func bitmap(_ type: UInt16, _ codes: [UInt16]) {
            guard !codes.isEmpty else { return }
            var bytes = [UInt8](repeating: 0, count: Int(codes.max()!) / 8 + 1)
            for c in codes { bytes[Int(c) / 8] |= 1 << (c % 8) }
            out += "B: \(hex(type, 2)) " + bytes.map { hex(UInt16($0), 2) }.joined(separator: " ") + "\n"
        }
        bitmap(EV.KEY, g.keys)
        bitmap(EV.REL, g.rels)
        bitmap(EV.ABS, g.absinfo.map(\.code))
        for a in g.absinfo { out += "A: \(hex(a.code, 2)) \(a.min) \(a.max) 0 0 \(a.res)\n" }
        for e in g.events {
            let us = String(e.usec)
            out += "E: \(e.sec).\(String(repeating: "0", count: 6 - us.count))\(us) \(hex(e.type, 4)) \(hex(e.code, 4)) \(e.value)\n"
        }
        return out
    }

    static func libinputText(_ g: Generated) -> String {
        var out = "# libinput record\nversion: 1\nndevices: 1\ndevices:\n- node: /dev/input/event0\n  evdev:\n    name: \"fuzz device\"\n    id: [3, 1, 2, 3]\n    codes:\n"
        if !g.keys.isEmpty { out += "      1: [\(g.keys.map(String.init).joined(separator: ", "))]\n" }
        if !g.rels.isEmpty { out += "      2: [\(g.rels.map(String.init).joined(separator: ", "))]\n" }
        if !g.absinfo.isEmpty {
            out += "      3: [\(g.absinfo.map { String($0.code) }.joined(separator: ", "))]\n    absinfo:\n"
            for a in g.absinfo { out += "      \(a.code): [\(a.min), \(a.max), 0, 0, \(a.res)]\n" }
        }
        out += "    properties: []\n  events:\n"
        var inFrame = false
        for e in g.events {
            if !inFrame { out += "  - evdev:\n"; inFrame = true }
            out += "    - [\(e.sec), \(e.usec), \(e.type), \(e.code), \(e.value)]\n"
            if e.type == EV.SYN, e.code == SYN.REPORT { inFrame = false }
        }
        return out
    }

    private static func hex(_ v: UInt16, _ width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// The same generated device and events as evemu and as libinput: both decode to the same
    /// frames or both fail; raw bytes (no description) must not trap either.
    static func generated(_ data: [UInt8], _ kind: EvdevProtocol) throws {
        let g = generate(data, kind)
        guard !g.events.isEmpty else { return }
        for options in [EventFileOptions(), EventFileOptions(surface: (100, 100))] {
            let evemu = try resultOrFinding { try readChecked(openEventFile(InputBytes(path: "fuzz.evemu", bytes: Array(evemuText(g).utf8)), options: options, format: .evemu)) }
            let libinput = try resultOrFinding { try readChecked(openEventFile(InputBytes(path: "fuzz.yml", bytes: Array(libinputText(g).utf8)), options: options, format: .libinput)) }
            switch (evemu, libinput) {
            case let (.success(a), .success(b)):
                if a != b { try fail("evemu and libinput disagree: \(a.count) and \(b.count) frames") }
            case (.failure, .failure):
                break
            case let (.success, .failure(e)), let (.failure(e), .success):
                try fail("only one of evemu and libinput fails: \(e)")
            }
            _ = try ignoringInputErrors { try readChecked(openEventFile(InputBytes(path: "fuzz.raw", bytes: g.events.flatMap(\.rawBytes)), options: options, format: .raw)) }
            // As a live device would deliver them (lenient: duplicates ignored, time held).
            if let device = (try? EvemuReader(input: InputBytes(path: "fuzz.evemu", bytes: Array(evemuText(g).utf8)), options: options))?.device {
                _ = try ignoringInputErrors { try readChecked(LiveReplay(decoder: EvdevDecoder(device: device, options: options, strict: false), events: g.events)) }
            }
        }
    }

    /// `body`'s result, an input error as a failure; a finding goes on up.
    static func resultOrFinding<T>(_ body: () throws -> T) throws -> Result<T, Error> {
        do { return .success(try body()) } catch let finding as Finding { throw finding } catch { return .failure(error) }
    }

    /// Events fed to a lenient (live) decoder, as a frame source.
    final class LiveReplay: FrameSource {
        let decoder: EvdevDecoder
        var events: IndexingIterator<[InputEventRecord]>
        var place = 0
        var ended = false
        init(decoder: EvdevDecoder, events: [InputEventRecord]) {
            self.decoder = decoder
            self.events = events.makeIterator()
        }
        func nextFrame() throws -> Frame? {
            if ended { return nil }
            while let e = events.next() {
                place += 1
                if let frame = try decoder.feed(e, place: place) { return frame }
            }
            ended = true
            return decoder.finish()
        }
    }
}
