/// One evdev event (`struct input_event` without the padding), as every source delivers it to the
/// decoder: raw bytes, evemu `E:` lines, libinput rows and live devices alike.
public struct InputEventRecord: Sendable, Equatable {
    public var sec: Int64
    public var usec: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(sec: Int64, usec: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.sec = sec
        self.usec = usec
        self.type = type
        self.code = code
        self.value = value
    }

    /// `struct input_event` on 64-bit Linux: 8 + 8 bytes of time, u16 type, u16 code, s32 value.
    public static let rawSize = 24

    /// Decodes one little-endian 24-byte record at `offset` of `bytes` (the caller checks the length).
    @inline(__always)
    static func decodeRaw(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> InputEventRecord {
        decodeRaw(bytes.baseAddress!, at: offset)
    }

    /// The same from a raw pointer (the caller checks the length).
    @inline(__always)
    static func decodeRaw(_ bytes: UnsafeRawPointer, at offset: Int) -> InputEventRecord {
        func load<T: FixedWidthInteger>(_ at: Int, as: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset &+ at, as: T.self))
        }
        return InputEventRecord(
            sec: load(0, as: Int64.self), usec: load(8, as: Int64.self),
            type: load(16, as: UInt16.self), code: load(18, as: UInt16.self), value: load(20, as: Int32.self))
    }

    /// The 24 little-endian bytes of this event, as the kernel would write them.
    public var rawBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.rawSize)
        withUnsafeBytes(of: sec.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: usec.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: type.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: code.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        return out
    }
}
