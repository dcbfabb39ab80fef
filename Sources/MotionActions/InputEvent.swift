/// One evdev `struct input_event` as the virtual device writes it (the kernel stamps the time).
public struct InputEvent: Equatable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02

    public static let relX: UInt16 = 0x00
    public static let relY: UInt16 = 0x01
    public static let relHWheel: UInt16 = 0x06
    public static let relWheel: UInt16 = 0x08
    public static let relWheelHiRes: UInt16 = 0x0b
    public static let relHWheelHiRes: UInt16 = 0x0c
    /// The relative axes the virtual mouse declares.
    public static let relativeAxes: [UInt16] = [relX, relY, relHWheel, relWheel, relWheelHiRes, relHWheelHiRes]

    public static let synReport = InputEvent(type: syn, code: 0, value: 0)

    public static func key(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: key, code: code, value: value) }
    public static func rel(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: rel, code: code, value: value) }

    /// Size of `struct input_event` on 64-bit Linux: a 16-byte timeval, type, code, value.
    public static let recordSize = 24

    /// The event as the 24 bytes of a `struct input_event` with a zero time (little endian).
    public func appendRecord(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(0, count: 16))
        for shift in [0, 8] as [UInt16] { bytes.append(UInt8(truncatingIfNeeded: type >> shift)) }
        for shift in [0, 8] as [UInt16] { bytes.append(UInt8(truncatingIfNeeded: code >> shift)) }
        let raw = UInt32(bitPattern: value)
        for shift in [0, 8, 16, 24] as [UInt32] { bytes.append(UInt8(truncatingIfNeeded: raw >> shift)) }
    }

    /// Decodes records written by `appendRecord` (tests, and reading back a sink's file).
    public static func decode(records bytes: [UInt8]) -> [InputEvent] {
        stride(from: 0, to: bytes.count - recordSize + 1, by: recordSize).map { at in
            func u16(_ i: Int) -> UInt16 { UInt16(bytes[at + i]) | UInt16(bytes[at + i + 1]) << 8 }
            let value = UInt32(u16(20)) | UInt32(u16(22)) << 16
            return InputEvent(type: u16(16), code: u16(18), value: Int32(bitPattern: value))
        }
    }

    public var description: String {
        switch type {
        case Self.syn: return "SYN"
        case Self.key: return "\(KeyName.codeName(code)) \(value)"
        case Self.rel: return "REL \(code) \(value)"
        default: return "type \(type) code \(code) value \(value)"
        }
    }
}

extension KeyName {
    /// `KEY_*` or `BTN_*` name of a code for descriptions.
    static func codeName(_ code: UInt16) -> String {
        if MouseButton.codes.contains(where: { $0.code == code }) { return "BTN_" + MouseButton.name(of: code).uppercased() }
        return headerName(of: code)
    }
}
