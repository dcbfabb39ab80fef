/// i3/sway IPC framing: `"i3-ipc"`, payload length and message type (32-bit, native byte
/// order), then the JSON payload. Events carry the type with the high bit set.
enum SwayIPC {
    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14
    static let getTree: UInt32 = 4
    static let subscribe: UInt32 = 2
    static let windowEvent: UInt32 = 0x8000_0003

    static func message(type: UInt32, payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        var bytes = magic
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: type.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes + body
    }

    /// Takes whole messages off the front of a byte stream, however it was split by reads.
    struct Decoder {
        private var buffer: [UInt8] = []
        /// Payloads larger than this are a broken stream, not a message (a sway tree is kilobytes).
        static let maxPayload = 64 << 20

        mutating func append(_ bytes: [UInt8]) {
            buffer.append(contentsOf: bytes)
        }

        /// The next whole message, or nil when more bytes are needed. Throws on bytes that are
        /// not i3-ipc.
        mutating func next() throws -> (type: UInt32, payload: [UInt8])? {
            guard buffer.count >= SwayIPC.headerSize else { return nil }
            guard Array(buffer[0..<6]) == SwayIPC.magic else { throw FocusError("not an i3-ipc message") }
            let length = Int(UInt32(buffer[6]) | UInt32(buffer[7]) << 8 | UInt32(buffer[8]) << 16 | UInt32(buffer[9]) << 24)
            let type = UInt32(buffer[10]) | UInt32(buffer[11]) << 8 | UInt32(buffer[12]) << 16 | UInt32(buffer[13]) << 24
            guard length <= Self.maxPayload else { throw FocusError("i3-ipc message of \(length) bytes") }
            guard buffer.count >= SwayIPC.headerSize + length else { return nil }
            let payload = Array(buffer[SwayIPC.headerSize..<(SwayIPC.headerSize + length)])
            buffer.removeFirst(SwayIPC.headerSize + length)
            return (type, payload)
        }
    }
}
