#if canImport(Glibc)
import Glibc
#endif

/// The messages between `motionscript test` and its worker processes, over a socket: a message
/// is an 8-byte little-endian length, then fields, each a 4-byte little-endian length and its
/// bytes. Lengths, not separators: output lines and paths may hold any byte.
enum WorkerMessage {
    /// Longer messages are refused (a worker's output is capped well below this).
    static let maxLength = 1 << 31

    static func encode(_ fields: [String]) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(fields.reduce(0) { $0 + 4 + $1.utf8.count })
        for field in fields {
            appendLittleEndian(UInt64(field.utf8.count), bytes: 4, to: &payload)
            payload += field.utf8
        }
        var message: [UInt8] = []
        message.reserveCapacity(8 + payload.count)
        appendLittleEndian(UInt64(payload.count), bytes: 8, to: &message)
        return message + payload
    }

    /// The fields of a payload (the bytes after the length), or nil when they do not add up.
    static func decode(_ payload: ArraySlice<UInt8>) -> [String]? {
        var fields: [String] = []
        var at = payload.startIndex
        while at < payload.endIndex {
            guard payload.endIndex - at >= 4 else { return nil }
            let length = Int(littleEndian(payload[at..<at + 4]))
            at += 4
            guard payload.endIndex - at >= length else { return nil }
            fields.append(String(decoding: payload[at..<at + length], as: UTF8.self))
            at += length
        }
        return fields
    }

    /// The payload length a message starts with, once 8 bytes are there.
    static func length(of header: ArraySlice<UInt8>) -> Int? {
        guard header.count >= 8 else { return nil }
        let value = littleEndian(header.prefix(8))
        return value <= UInt64(maxLength) ? Int(value) : -1
    }

    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for shift in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    /// Writes all of `bytes` to a blocking descriptor; false when the other end is gone.
    static func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    /// Reads one message from a blocking descriptor; nil at end of input or on a bad message.
    static func receive(from fd: Int32) -> [String]? {
        guard let header = readExactly(8, from: fd), let length = length(of: header[...]), length >= 0,
              let payload = readExactly(length, from: fd) else { return nil }
        return decode(payload[...])
    }

    private static func readExactly(_ count: Int, from fd: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return nil }
        }
        return bytes
    }
}
