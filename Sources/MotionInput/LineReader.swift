/// Reads a file line by line in fixed-size chunks: constant memory whatever the file size.
/// Lines are handed out as byte buffers valid until the next call. A UTF-8 byte order mark at the
/// start of the input is skipped (editors on some systems write one).
public final class LineReader {
    public let path: String
    private let input: InputBytes
    private var buffer: [UInt8]
    private var line: [UInt8] = []
    private var start = 0
    private var end = 0
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
        buffer = [UInt8](repeating: 0, count: chunkSize)
        line.reserveCapacity(256)
    }

    /// Calls `body` with the next line (without its newline or a trailing CR); false at EOF.
    public func nextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        line.removeAll(keepingCapacity: true)
        var sawAny = false
        while true {
            if start == end {
                if atEOF { break }
                let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
                if n == 0 {
                    atEOF = true
                    break
                }
                start = 0
                end = n
            }
            sawAny = true
            if let newline = buffer[start..<end].firstIndex(of: 10) {
                line.append(contentsOf: buffer[start..<newline])
                start = newline + 1
                try checkLength()
                return try finish(body)
            }
            line.append(contentsOf: buffer[start..<end])
            start = end
            try checkLength()
        }
        if !sawAny && line.isEmpty { return nil }
        return try finish(body)
    }

    /// Lines are bounded so memory is: no format has lines this long.
    public static let maxLineLength = 4 << 20

    private func checkLength() throws {
        if line.count > Self.maxLineLength {
            throw InputError(file: path, line: lineNumber + 1, "line longer than \(Self.maxLineLength) bytes")
        }
    }

    private func finish<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        lineNumber += 1
        if line.last == 13 { line.removeLast() }
        if atStart {
            atStart = false
            if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { line.removeFirst(3) }
        }
        return try line.withUnsafeBufferPointer(body)
    }
}
