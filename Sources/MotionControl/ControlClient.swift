#if canImport(Glibc)
import Glibc
#endif
import MotionJSON

/// `ctl`'s end of the control socket: a blocking connection that sends requests and reads answer
/// lines.
public final class ControlClient {
    public enum ConnectError: Error, CustomStringConvertible {
        /// No daemon listens there (no socket, or a socket nobody serves).
        case noDaemon(path: String)
        case failed(String)

        public var description: String {
            switch self {
            case .noDaemon(let path): return "no motionscript daemon is running on \(path)"
            case .failed(let message): return message
            }
        }
    }

    private var fd: Int32
    private var buffer: [UInt8] = []
    private var nextId = 1

    public init(path: String) throws {
        guard let address = UnixSocketAddress(path) else { throw ConnectError.failed("the socket path \(path) is too long") }
        // A socket in a folder someone else controls may be theirs: not trusted.
        if let problem = ControlSocketPath.problem(socketPath: path) { throw ConnectError.failed(problem) }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ConnectError.failed(systemError("cannot create a socket")) }
        let connected = address.withSockaddr { connect(fd, $0, $1) }
        if connected != 0 {
            let code = errno
            Glibc.close(fd)
            if code == ENOENT || code == ECONNREFUSED || code == ENOTDIR { throw ConnectError.noDaemon(path: path) }
            errno = code
            throw ConnectError.failed(systemError("cannot connect to \(path)"))
        }
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    /// Sends a request (an id is added) and returns its id.
    @discardableResult
    public func send(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        let id = JSONValue.number(Double(nextId))
        nextId += 1
        let line = ControlRequest(id: id, command: command, arguments: .object(arguments)).line + "\n"
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ConnectError.failed(systemError("the daemon closed the connection")) }
            bytes = bytes.dropFirst(n)
        }
        return id
    }

    /// The next line from the daemon, parsed (nil: the daemon closed the connection).
    public func readLine() throws -> JSONValue? {
        try readRawLine().map { line in
            do {
                return try JSONValue.parse(line)
            } catch {
                throw ConnectError.failed("the daemon sent a line that is not JSON: \(line.prefix(200))")
            }
        }
    }

    /// The next line as the daemon wrote it (nil: the daemon closed the connection).
    public func readRawLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ConnectError.failed(systemError("cannot read from the daemon")) }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Sends one request and waits for its answer (lines of other ids, from a stream, are skipped).
    public func request(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        let id = try send(command, arguments)
        while let line = try readLine() {
            if line["id"] == id || line["id"] == .null { return line }
        }
        throw ConnectError.failed("the daemon closed the connection before answering")
    }
}
