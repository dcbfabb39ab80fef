#if canImport(Glibc)
import Glibc
#endif

/// Reads a file line by line in fixed-size chunks: constant memory whatever the file size.
/// Lines are handed out as byte buffers valid until the next call.
public final class LineReader {
    public let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8]
    private var line: [UInt8] = []
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0

    public init(path: String, chunkSize: Int = 1 << 16) throws {
        self.path = path
        guard let file = fopen(path, "rb") else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        self.file = file
        buffer = [UInt8](repeating: 0, count: chunkSize)
        line.reserveCapacity(256)
    }

    deinit {
        fclose(file)
    }

    /// Calls `body` with the next line (without its newline or a trailing CR); false at EOF.
    public func nextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        line.removeAll(keepingCapacity: true)
        var sawAny = false
        while true {
            if start == end {
                if atEOF { break }
                let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if n == 0 {
                    if ferror(file) != 0 {
                        throw InputError(file: path, line: lineNumber + 1, "read error: \(String(cString: strerror(errno)))")
                    }
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
                return try finish(body)
            }
            line.append(contentsOf: buffer[start..<end])
            start = end
        }
        if !sawAny && line.isEmpty { return nil }
        return try finish(body)
    }

    private func finish<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        lineNumber += 1
        if line.last == 13 { line.removeLast() }
        return try line.withUnsafeBufferPointer(body)
    }
}
