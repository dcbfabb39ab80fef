#if canImport(Glibc)
import Glibc
#endif

/// The messages between `motionscript test` and its worker processes, over a socket: a message
/// is an 8-byte little-endian length, then fields, each a 4-byte little-endian length and its
/// bytes. Lengths, not separators: output lines and paths may hold any byte.
///
/// While a scenario runs, its worker sends its output as it comes, in `out` messages (the word
/// `out`, then bytes of whole lines as `run` writes them); then one reply ends the scenario.
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

    /// The first field of an output message.
    static let outputWord: [UInt8] = Array("out".utf8)

    /// Sends an output message holding `bytes`; false when the other end is gone.
    static func sendOutput(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Bool {
        var header: [UInt8] = []
        header.reserveCapacity(8 + 4 + outputWord.count + 4)
        appendLittleEndian(UInt64(4 + outputWord.count + 4 + bytes.count), bytes: 8, to: &header)
        appendLittleEndian(UInt64(outputWord.count), bytes: 4, to: &header)
        header += outputWord
        appendLittleEndian(UInt64(bytes.count), bytes: 4, to: &header)
        return header.withUnsafeBytes { send($0, to: fd) } && send(UnsafeRawBufferPointer(bytes), to: fd)
    }

    /// The bytes of an output message, given its payload; nil when it is another message.
    static func output(in payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let word = outputWord.count
        guard payload.count >= 4 + word + 4, littleEndian(payload[0..<4]) == UInt64(word),
              outputWord.withUnsafeBytes({ payload[4..<(4 + word)].elementsEqual($0) }),
              littleEndian(payload[(4 + word)..<(8 + word)]) == UInt64(payload.count - 8 - word) else { return nil }
        return UnsafeRawBufferPointer(rebasing: payload[(8 + word)...])
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

    static func littleEndian<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for shift in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    /// Writes all of `bytes` to a blocking descriptor; false when the other end is gone.
    static func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { send($0, to: fd) }
    }

    static func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
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
