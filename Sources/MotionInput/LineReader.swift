#if canImport(Glibc)
import Glibc
#endif

/// Reads a file line by line in fixed-size chunks: constant memory whatever the file size.
/// Lines are handed out as byte buffers valid until the next call. A UTF-8 byte order mark at the
/// start of the input is skipped (editors on some systems write one).
///
/// A line is a slice of the read buffer, found with `memchr`: no byte is copied except the start
/// of a line that straddles the end of a chunk, which moves to the front of the buffer before the
/// next read. The buffer grows only for a line longer than a chunk (up to `maxLineLength`).
public final class LineReader {
    public let path: String
    private let input: InputBytes
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The next line starts here; bytes up to `end` are read and not yet handed out.
    private var start = 0
    private var end = 0
    /// Bytes after `start` already searched for a newline (none there): a long line is scanned once.
    private var scanned = 0
    private var atEOF = false
    private var atStart = true
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0

    public convenience init(path: String, chunkSize: Int = 1 << 16) throws {
        try self.init(input: InputBytes(path: path), chunkSize: chunkSize)
    }

    init(input: InputBytes, chunkSize: Int = 1 << 16) {
        path = input.path
        self.input = input
        capacity = max(chunkSize, 1)
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes the buffer holds now (tests: it grows only for long lines, and only so far).
    var bufferCapacity: Int { capacity }

    /// Lines are bounded so memory is: no format has lines this long.
    public static let maxLineLength = 4 << 20

    /// Calls `body` with the next line (without its newline or a trailing CR); false at EOF.
    public func nextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        guard let line = try next() else { return nil }
        return try body(line)
    }

    /// The next line (without its newline or a trailing CR), valid until the next call; nil at EOF.
    public func next() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            let from = start + scanned
            if from < end, let found = memchr(storage + from, 10, end - from) {
                let newline = storage.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let lineStart = start
                start = newline + 1
                scanned = 0
                return try finish(from: lineStart, count: newline - lineStart)
            }
            scanned = end - start
            if scanned > Self.maxLineLength { throw tooLong() }
            if atEOF {
                // The last line has no newline (or the input ended after one: nothing is left).
                if start == end { return nil }
                let lineStart = start
                start = end
                scanned = 0
                return try finish(from: lineStart, count: end - lineStart)
            }
            try refill()
        }
    }

    /// Moves the unfinished line to the front, grows the buffer when that line fills it, and reads.
    private func refill() throws {
        if start > 0 {
            let pending = end - start
            if pending > 0 { (storage).update(from: storage + start, count: pending) }
            start = 0
            end = pending
        }
        if end == capacity {
            // One line longer than the buffer: room for it, up to one byte past the longest allowed.
            let grown = min(capacity * 2, Self.maxLineLength + 1)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: storage, count: end)
            storage.deallocate()
            storage = bigger
            capacity = grown
        }
        let n = try input.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
        if n == 0 { atEOF = true } else { end += n }
    }

    private func tooLong() -> InputError {
        InputError(file: path, line: lineNumber + 1, "line longer than \(Self.maxLineLength) bytes")
    }

    private func finish(from lineStart: Int, count: Int) throws -> UnsafeBufferPointer<UInt8> {
        if count > Self.maxLineLength { throw tooLong() }
        lineNumber += 1
        var first = storage + lineStart
        var count = count
        if count > 0, first[count - 1] == 13 { count -= 1 }
        if atStart {
            atStart = false
            if count >= 3, first[0] == 0xEF, first[1] == 0xBB, first[2] == 0xBF {
                first += 3
                count -= 3
            }
        }
        return UnsafeBufferPointer(start: first, count: count)
    }
}
