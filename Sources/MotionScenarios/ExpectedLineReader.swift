#if canImport(Glibc)
import Glibc
#endif

/// The non-blank lines of an expected file, read a chunk at a time: a file of any size takes the
/// memory of a chunk and of its few longest lines, not of the whole file. The rules are the
/// comparator's: lines end with LF or CRLF, a UTF-8 byte order mark at the start is ignored,
/// lines of spaces and tabs only are skipped (but counted, so numbers are the file's).
struct ExpectedLineReader {
    /// One non-blank line: its number in the file, its index among the non-blank lines, and
    /// where its bytes (without the line end) are in the reader's buffer.
    struct Line {
        var number: Int
        var index: Int
        var start: Int
        var end: Int
    }

    /// Bytes asked of the source at a time.
    static let chunkSize = 64 * 1024
    /// Lines still readable once the next has been returned: the context a diff shows before
    /// the first line that differs.
    static let kept = 3

    /// Reads into the space given and returns how many bytes it read, 0 at the end.
    typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

    /// Bytes read: the first `filled` of `buffer`.
    private var buffer = [UInt8](repeating: 0, count: chunkSize)
    private var filled = 0
    private let source: Source
    /// The first byte not yet split into lines, and how many bytes after it hold no LF.
    private var start = 0
    private var searched = 0
    private var ended = false
    private var startChecked = false
    private var number = 0
    private var index = 0
    /// The last `kept + 1` lines returned, oldest first after `recentNext`.
    private var recent: [Line] = []
    private var recentNext = 0

    init(source: @escaping Source) {
        self.source = source
    }

    /// Lines from bytes in memory, handed out `chunk` bytes at a time (tests use small chunks).
    init(bytes: [UInt8], chunk: Int = chunkSize) {
        var offset = 0
        self.init { space in
            let count = min(space.count, chunk, bytes.count - offset)
            space.copyBytes(from: bytes[offset..<(offset + count)])
            offset += count
            return count
        }
    }

    /// The next non-blank line, nil at the end of the file.
    mutating func next() throws -> Line? {
        if !startChecked {
            while filled < 3, try read() {}
            if filled >= 3, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            startChecked = true
        }
        while true {
            var lineEnd: Int
            if let newline = findNewline() {
                lineEnd = newline
                searched = 0
            } else if try ended || !read() {
                // The bytes after the last LF are a line too (empty, thus skipped, when the
                // file ends with LF).
                guard start < filled else { return nil }
                lineEnd = filled
            } else {
                continue
            }
            let lineStart = start
            start = lineEnd + 1
            number += 1
            if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if buffer[lineStart..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let line = Line(number: number, index: index, start: lineStart, end: lineEnd)
            index += 1
            if recent.count <= Self.kept {
                recent.append(line)
            } else {
                recent[recentNext] = line
                recentNext = (recentNext + 1) % recent.count
            }
            return line
        }
    }

    /// Calls `body` with the bytes of `line`, which must be the last returned or one of the
    /// `kept` before it.
    func withBytes<R>(of line: Line, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[line.start..<line.end])) }
    }

    func text(of line: Line) -> String {
        withBytes(of: line) { String(decoding: $0, as: UTF8.self) }
    }

    /// The lines returned lately whose index is at least `from` and below `to`, in order.
    func recentLines(from: Int, to: Int) -> [Line] {
        (recent[recentNext...] + recent[..<recentNext]).filter { $0.index >= from && $0.index < to }
    }

    /// The index of the next LF at or after `start`, searching only bytes not searched yet.
    private mutating func findNewline() -> Int? {
        let from = start + searched
        guard from < filled else { return nil }
        let found = buffer.withUnsafeBytes { bytes -> Int? in
            guard let hit = memchr(bytes.baseAddress! + from, 0x0A, filled - from) else { return nil }
            return bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
        }
        if found == nil { searched = filled - start }
        return found
    }

    /// Reads more from the source, making room first (dropping what no line needs any more, or
    /// growing the buffer for a long line); false at the end.
    private mutating func read() throws -> Bool {
        guard !ended else { return false }
        if buffer.count - filled < Self.chunkSize / 2 {
            let keepFrom = min(start, recent.map(\.start).min() ?? start)
            if keepFrom > 0 {
                buffer.withUnsafeMutableBytes { bytes in
                    bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + keepFrom, byteCount: filled - keepFrom)
                }
                filled -= keepFrom
                start -= keepFrom
                for i in recent.indices {
                    recent[i].start -= keepFrom
                    recent[i].end -= keepFrom
                }
            }
            if buffer.count - filled < Self.chunkSize / 2 {
                buffer += repeatElement(0, count: max(Self.chunkSize, buffer.count))
            }
        }
        let count = try buffer.withUnsafeMutableBytes { try source(UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
        filled += count
        if count == 0 { ended = true }
        return count > 0
    }
}
