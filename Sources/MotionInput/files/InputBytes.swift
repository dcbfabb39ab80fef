#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// The bytes of an event file, opened once: a regular file, a pipe (`/dev/stdin`), a FIFO or a
/// character device. Format detection peeks at a prefix that stays buffered and is handed to the
/// reader first, so nothing is read twice and a pipe is never reopened (a reopened pipe would go on
/// where detection stopped).
///
/// A FIFO is opened without blocking (opening one for reading otherwise waits for a writer); reads
/// then wait in `poll` until a writer sends data, saying once on stderr what they wait for when
/// nothing came within a second. End of input is when the last writer closes.
final class InputBytes {
    let path: String
    private let fd: Int32
    private let isFIFO: Bool
    /// Bytes read ahead by `peek`, handed out before anything else.
    private var prefix: [UInt8] = []
    private var prefixStart = 0
    private var atEOF = false
    private var saidWaiting = false
    /// Total bytes handed out by `read`: the byte offset of the next one.
    private(set) var offset = 0
    /// Where the waiting notice goes (stderr; tests replace it).
    var notice: (String) -> Void = { message in StandardError.write("motionscript: \(message)\n") }

    init(path: String) throws {
        self.path = path
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(file: path, "is a directory, not an event file")
        }
        isFIFO = stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
        let fd = open(path, O_RDONLY | O_CLOEXEC | (isFIFO ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    /// Bytes already given to this object (tests, fuzzing): no file at all.
    init(path: String, bytes: [UInt8]) {
        self.path = path
        fd = -1
        isFIFO = false
        prefix = bytes
        atEOF = true
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Reads ahead until at least `count` bytes are buffered, `enough` says the buffered bytes
    /// suffice, or the input ends. Returns the buffered prefix (not consumed).
    func peek(upTo count: Int, enough: ([UInt8]) -> Bool = { _ in false }) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        while prefix.count - prefixStart < count, !atEOF, !enough(Array(prefix[prefixStart...])) {
            let want = count - (prefix.count - prefixStart)
            let n = try chunk.withUnsafeMutableBytes { try readFile(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            if n == 0 { atEOF = true } else { prefix.append(contentsOf: chunk[..<n]) }
        }
        return Array(prefix[prefixStart...])
    }

    /// Fills `buffer` with up to its size in bytes; 0 only at the end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if prefixStart < prefix.count {
            let n = min(buffer.count, prefix.count - prefixStart)
            prefix.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + prefixStart, byteCount: n)
            }
            prefixStart += n
            if prefixStart == prefix.count {
                prefix = []
                prefixStart = 0
            }
            offset += n
            return n
        }
        if atEOF { return 0 }
        let n = try readFile(into: buffer)
        if n == 0 { atEOF = true }
        offset += n
        return n
    }

    private func readFile(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard fd >= 0 else { return 0 }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 {
                if n == 0, isFIFO, !hadWriter {
                    // No writer has connected yet: a FIFO reads as EOF until one does.
                    try waitForData()
                    continue
                }
                if n > 0 { hadWriter = true }
                return n
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: try waitForData()
            default:
                throw InputError(file: path, place: .byteOffset(offset + prefix.count - prefixStart),
                                 "read error: \(String(cString: strerror(errno)))")
            }
        }
    }

    private var hadWriter = false

    /// Waits until the FIFO has data or its last writer left; says once what it waits for.
    /// The process's wake-up (`InputWake`: SIGINT, SIGTERM) ends the wait with an error.
    private func waitForData() throws {
        var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: InputWake.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            // Only a FIFO that never had a writer gets the notice: a writer that is slow is not news.
            let ready = poll(&pfds, InputWake.readEnd >= 0 ? 2 : 1, saidWaiting || hadWriter ? -1 : 1000)
            if ready > 0, pfds[1].revents != 0 {
                throw InputError(file: path, "interrupted while waiting for \(hadWriter ? "input" : "a writer") on this FIFO")
            }
            if ready > 0 {
                // Data, or the writer hung up (POLLHUP): the next read tells which.
                if pfds[0].revents & Int16(POLLHUP) != 0 { hadWriter = true }
                return
            }
            if ready < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "poll failed: \(String(cString: strerror(errno)))")
            }
            if !saidWaiting, !hadWriter {
                saidWaiting = true
                notice("\(path): waiting for a writer on this FIFO (nothing received yet)")
            }
        }
    }
}

/// The whole content of `path`, read as event files are (a FIFO opened without blocking and
/// waited on interruptibly): for a script given as a FIFO or pipe (`run <(make-script)`), which
/// Lua's `fopen` would wait on in `open` past any signal. At most `limit` bytes.
public func readWholeInput(path: String, limit: Int) throws -> [UInt8] {
    let input = try InputBytes(path: path)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
        if n == 0 { return bytes }
        bytes += chunk[..<n]
        if bytes.count > limit { throw InputError(file: path, "longer than \(limit) bytes") }
    }
}
