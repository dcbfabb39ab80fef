#if canImport(Glibc)
import Glibc
#endif
import MotionGestures

/// Writes an evemu recording as `evemu-record` does (format 1.3): header comments, the device
/// description (`N:`, `I:`, `P:`, `B:`, `A:` with resolution) and `E: sec.usec type code value` lines
/// with evemu's zero padding (`%04x %04x %04d`, so -1 reads `-001`). Times are relative to the first
/// event, which is written at 0.000001 like evemu does.
public final class EvemuWriter {
    public let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var offset: (sec: Int64, usec: Int64)?
    /// Per device: the time of its last SYN_REPORT (for evemu's `+Nms` comment), and what its
    /// lines start with.
    private var lastReport: [Int64?]
    private let prefixes: [String]
    private var closed = false

    /// The comment that makes a replay name the device in every pointer event (`p.device`, as
    /// live input does), followed by its kind. Other evemu files replay without a device, as before.
    public static let keptDeviceMarker = "# motionscript device kind: "
    /// The comment that makes a recording hold several devices: device 1 as in a recording of
    /// it alone, the lines of device K (2…N) prefixed with `#K ` (docs/input.md).
    public static let devicesMarker = "# motionscript devices: "

    /// `keptKind`: the device's kind (touchpad, touchscreen…) to keep in the recording.
    public convenience init(path: String, device: DeviceDescription, keptKind: String? = nil) throws {
        try self.init(path: path, devices: [(device, keptKind)])
    }

    /// A recording of `devices` (one: a plain evemu recording; more: device 1 as alone, then
    /// the others' descriptions, each line prefixed with `#K `). Events of device K go through
    /// `write(_:device:)` in one timestamp order.
    public init(path: String, devices: [(description: DeviceDescription, keptKind: String?)]) throws {
        guard let file = fopen(path, "wb") else {
            throw InputError(file: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.file = file
        prefixes = devices.indices.map { $0 == 0 ? "" : "#\($0 + 1) " }
        lastReport = Array(repeating: nil, count: devices.count)
        var header = Self.header(devices[0].description, keptKind: devices[0].keptKind, devices: devices.count)
        for (k, device) in devices.enumerated().dropFirst() {
            var lines = device.keptKind.map { Self.keptDeviceMarker + $0.filter { !$0.isNewline } + "\n" } ?? ""
            lines += Self.description(device.description)
            for line in lines.split(separator: "\n") { header += prefixes[k] + line + "\n" }
        }
        try put(header + Self.waiting)
    }

    /// Writes each event at its own time (seconds since the epoch of its timestamps) instead of
    /// starting at 0.000001 as evemu does: a proxy's clone recording keeps the input's times.
    public func keepTimes() {
        offset = (0, 0)
    }

    deinit {
        try? close()
    }

    /// The description part of the file, from `# EVEMU 1.3` to the `A:` lines.
    public static func header(_ d: DeviceDescription, keptKind: String? = nil) -> String {
        header(d, keptKind: keptKind, devices: 1) + waiting
    }

    static let waiting = "################################\n#      Waiting for events      #\n################################\n"

    static func header(_ d: DeviceDescription, keptKind: String?, devices: Int) -> String {
        func hex2(_ v: Int) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(d.name)\"\n"
        out += "# Input device ID: bus 0x\(hex2(Int(d.bus))) vendor 0x\(hex2(Int(d.vendor))) product 0x\(hex2(Int(d.product))) version 0x\(hex2(Int(d.version)))\n"
        out += "# Supported events:\n"
        for type in (d.codes.keys.filter { $0 != EV.SYN }).sorted() {
            out += "#   Event type \(type) (\(EV.typeName(type) ?? "?"))\n"
            for code in (d.codes[type] ?? []).sorted() {
                out += "#     Event code \(code)" + (EvdevNames.code(type: type, code: code).map { " (\($0))" } ?? "") + "\n"
                if type == EV.ABS, let a = d.absinfo[code] {
                    out += "#       Value \(a.value)\n#       Min \(a.minimum)\n#       Max \(a.maximum)\n#       Fuzz \(a.fuzz)\n#       Flat \(a.flat)\n#       Resolution \(a.resolution)\n"
                }
            }
        }
        out += "# Properties:\n"
        for p in d.properties.sorted() { out += "#   Property \(p)\n" }
        if let keptKind { out += keptDeviceMarker + keptKind.filter { !$0.isNewline } + "\n" }
        if devices > 1 { out += devicesMarker + "\(devices)\n" }
        return out + description(d)
    }

    /// The `N:`, `I:`, `P:`, `B:` and `A:` lines.
    static func description(_ d: DeviceDescription) -> String {
        func hex2(_ v: Int) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        func hex4(_ v: UInt16) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: max(0, 4 - s.count)) + s }
        // Header lines must not break when the name holds a newline.
        var out = "N: \(d.name.split(whereSeparator: \.isNewline).joined(separator: " "))\n"
        out += "I: \(hex4(d.bus)) \(hex4(d.vendor)) \(hex4(d.product)) \(hex4(d.version))\n"
        var props = [UInt8](repeating: 0, count: 8)
        for p in d.properties where p < 64 { props[p / 8] |= UInt8(1 << (p % 8)) }
        out += "P:" + props.map { " " + hex2(Int($0)) }.joined() + "\n"
        for (type, bytes) in EvdevIoctl.bitmapBytes {
            let bitmap = d.bitmap(type: type, bytes: bytes)
            for chunk in stride(from: 0, to: bytes, by: 8) {
                out += "B: \(hex2(Int(type)))" + bitmap[chunk..<min(chunk + 8, bytes)].map { " " + hex2(Int($0)) }.joined() + "\n"
            }
        }
        for code in d.absinfo.keys.sorted() {
            let a = d.absinfo[code]!
            out += "A: \(hex2(Int(code))) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return out
    }

    /// One `E:` line, e.g. `E: 0.000001 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID -1`.
    public static func eventLine(_ e: InputEventRecord, sec: Int64, usec: Int64, sinceLastReportMs: Int64? = nil) -> String {
        func hex4(_ v: UInt16) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: max(0, 4 - s.count)) + s }
        let usecText = String(usec)
        var value = String(abs(Int64(e.value)))
        if value.count < (e.value < 0 ? 3 : 4) { value = String(repeating: "0", count: (e.value < 0 ? 3 : 4) - value.count) + value }
        if e.value < 0 { value = "-" + value }
        var line = "E: \(sec).\(String(repeating: "0", count: 6 - usecText.count) + usecText) \(hex4(e.type)) \(hex4(e.code)) \(value)\t"
        if e.type == EV.SYN && e.code == SYN.REPORT {
            line += "# ------------ SYN_REPORT (0) ----------"
            if let ms = sinceLastReportMs { line += " +\(ms)ms" }
        } else if e.type == EV.SYN && e.code == SYN.MT_REPORT {
            line += "# ++++++++++++ SYN_MT_REPORT (0) ++++++++++"
        } else {
            let type = EV.typeName(e.type) ?? "0x\(hex4(e.type))"
            let code = EvdevNames.code(type: e.type, code: e.code) ?? "0x\(hex4(e.code))"
            line += "# \(type) / \(code) \(e.value)"
        }
        return line + "\n"
    }

    /// Appends one event of device `device` (0: the first); times are made relative to the
    /// first event of any device.
    public func write(_ e: InputEventRecord, device: Int = 0) throws {
        if offset == nil {
            // As evemu: the first event lands at 0.000001.
            var sec = e.sec
            var usec = e.usec - 1
            if usec < 0 { usec += 1_000_000; sec -= 1 }
            offset = (sec, usec)
        }
        let micros = (e.sec - offset!.sec) * 1_000_000 + (e.usec - offset!.usec)
        var sinceLast: Int64?
        if e.type == EV.SYN && e.code == SYN.REPORT {
            if let last = lastReport[device] { sinceLast = (micros - last) / 1000 }
            lastReport[device] = micros
        }
        let line = Self.eventLine(e, sec: micros / 1_000_000, usec: micros % 1_000_000, sinceLastReportMs: sinceLast)
        try put(device == 0 ? line : prefixes[device] + line)
    }

    /// A focus change, as an app comment (`AppComment`): the events after it were made under `app`.
    public func write(app: AppInfo?) throws {
        try put(AppComment.line(app))
    }

    public func close() throws {
        guard !closed else { return }
        closed = true
        let flushed = fflush(file) == 0
        fclose(file)
        if !flushed { throw InputError(file: path, "cannot write: \(String(cString: strerror(errno)))") }
    }

    private func put(_ text: String) throws {
        let ok = text.utf8CString.withUnsafeBufferPointer { fputs($0.baseAddress!, file) >= 0 }
        if !ok { throw InputError(file: path, "cannot write: \(String(cString: strerror(errno)))") }
    }
}

/// Records a live source into an evemu file until it ends or is stopped (`reader.stop()` or a byte on
/// `reader.stopFileDescriptor`, e.g. from a SIGINT handler). Axis ranges that the source cannot report
/// (pipes) can be supplied in `axes`. `focusChanges` (a desktop provider, polled without blocking
/// before each event and at least every `focusPollInterval` seconds) adds the focus changes as app
/// comments. Returns the number of events written and the end reason.
public let focusPollInterval = 0.1

@discardableResult
public func recordEvemu(from reader: LiveEventReader, to path: String, axes: [UInt16: AbsInfo] = [:],
                        focusChanges: (() -> [AppInfo?])? = nil) throws -> (events: Int, endReason: String) {
    var device = reader.device
    for (code, info) in axes {
        device.absinfo[code] = info
        device.add(type: EV.ABS, code: code)
    }
    if device.name.isEmpty { device.name = reader.path }
    // The recording keeps its device: a replay names it in p.device as live input did.
    let kind = InputDeviceInfo.classify(properties: device.properties, abs: device.codes[EV.ABS] ?? [], rel: device.codes[EV.REL] ?? [])
    let writer = try EvemuWriter(path: path, device: device, keptKind: kind.rawValue)
    var count = 0
    while true {
        for app in focusChanges?() ?? [] { try writer.write(app: app) }
        switch try reader.next(timeout: focusChanges == nil ? nil : focusPollInterval) {
        case .event(let e):
            try writer.write(e)
            count += 1
        case .timeout:
            continue
        case .end(let reason):
            try writer.close()
            return (count, reason)
        }
    }
}
