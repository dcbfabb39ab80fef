import MotionGestures

/// One device's description in an evemu recording, line by line: `N:` name, `I:` ids, `P:`
/// properties, `B:` code bitmaps, `A:` axis ranges (evemu 1.1 lacks the resolution), `S:`
/// (ignored), and the kind a recording that keeps its device names (`# motionscript device
/// kind: KIND`). A recording of several devices has one for each (`EvemuReader`).
struct EvemuDeviceLines {
    var device = DeviceDescription()
    var keptKind: String?
    private var bitmaps: [UInt16: [UInt8]] = [:]
    private var properties: [UInt8] = []

    /// Takes a description line; the reason when it is malformed, or is no description line.
    mutating func take(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        var s = ByteScanner(line, at: 2)
        if line.hasPrefix("N:") {
            device.name = s.rest()
        } else if line.hasPrefix("I:") {
            var ids: [UInt16] = []
            while let v = s.integer(radix: 16), v >= 0, v <= 0xffff { ids.append(UInt16(v)) }
            guard ids.count == 4, s.atEndOrComment() else { return "malformed evemu line: expected 'I: bus vendor product version' (hex)" }
            (device.bus, device.vendor, device.product, device.version) = (ids[0], ids[1], ids[2], ids[3])
        } else if line.hasPrefix("P:") {
            guard let bytes = EvemuReader.hexBytes(&s) else { return "malformed evemu line: expected 'P:' followed by hex bytes (00 to ff)" }
            properties.append(contentsOf: bytes)
            // Properties are numbered like codes: more bytes than a bitmap can hold mean nothing.
            guard properties.count <= DeviceDescription.maxBitmapBytes else {
                return "evemu 'P:' lines hold more than \(DeviceDescription.maxBitmapBytes) bytes"
            }
        } else if line.hasPrefix("B:") {
            guard let type = s.integer(radix: 16), type >= 0, type < 0x20 else { return "malformed evemu line: expected 'B: type bytes...' (hex)" }
            guard let bytes = EvemuReader.hexBytes(&s) else { return "malformed evemu line: expected 'B: type bytes...' (hex bytes 00 to ff)" }
            bitmaps[UInt16(type), default: []].append(contentsOf: bytes)
            // Codes are 16-bit, so a longer bitmap cannot be a device's.
            guard bitmaps[UInt16(type)]!.count <= DeviceDescription.maxBitmapBytes else {
                return "evemu 'B:' lines for type \(type) hold more than \(DeviceDescription.maxBitmapBytes) bytes (codes are 16-bit)"
            }
        } else if line.hasPrefix("A:") {
            guard let code = s.integer(radix: 16), code >= 0, code < 0x40 else { return EvemuReader.absSyntax }
            var values: [Int32] = []
            while let v = s.integer(), let v32 = Int32(exactly: v) { values.append(v32) }
            guard values.count == 4 || values.count == 5, s.atEndOrComment() else { return EvemuReader.absSyntax }
            device.absinfo[UInt16(code)] = AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                                                  resolution: values.count == 5 ? values[4] : 0)
        } else if line.hasPrefix("S:") {
            // Event-less "S:" (switch state) lines in some versions: nothing to decode.
        } else {
            return "malformed evemu line: expected a description line (N:, I:, P:, B:, A:) or an event (E:)"
        }
        return nil
    }

    /// The kind marker's value when `line` is one.
    static func keptKind(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        guard !line.isEmpty, line[0] == 35, line.starts(with: EvemuWriter.keptDeviceMarker.utf8) else { return nil }
        return String(decoding: line.dropFirst(EvemuWriter.keptDeviceMarker.utf8.count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The description with its bitmaps and properties applied.
    func described() -> DeviceDescription {
        var device = device
        for (type, bitmap) in bitmaps { device.setBits(type: type, bitmap: bitmap) }
        for (i, byte) in properties.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { device.properties.insert(i * 8 + bit) }
        }
        return device
    }

    /// The device every pointer event names, for a recording that keeps it.
    var tag: PointerDevice? {
        guard let keptKind, !keptKind.isEmpty else { return nil }
        return PointerDevice(name: device.name, kind: keptKind)
    }
}
