#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking Unix stream socket to a compositor: connect, write a whole small message,
/// read what is there. Every failure is a `FocusError` with its reason.
final class UnixSocket {
    let fd: Int32

    /// Connects to `path`; the socket is non-blocking and close-on-exec.
    init(path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw FocusError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FocusError("socket: \(String(cString: strerror(errno)))") }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // A Unix socket connects at once or not at all (EAGAIN: the listener's backlog is full).
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FocusError("cannot connect to \(path): \(reason)")
        }
        self.fd = fd
    }

    /// Writes all of `bytes` (small requests; a full send buffer counts as a lost connection).
    func write(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            throw FocusError("write: \(n < 0 ? String(cString: strerror(errno)) : "nothing written")")
        }
    }

    /// Appends what can be read now to `buffer`. Throws when the peer closed or on an error.
    func readAvailable(into buffer: inout [UInt8]) throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                if n < chunk.count { return }
                continue
            }
            if n == 0 { throw FocusError("the compositor closed the connection") }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return }
            throw FocusError("read: \(String(cString: strerror(errno)))")
        }
    }

    /// Appends at most `limit` bytes that can be read now (one read): a peer that writes
    /// without pause is read a bounded amount per wake-up. Throws when the peer closed.
    func readSome(upTo limit: Int, into buffer: inout [UInt8]) throws {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: limit))
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + start, limit, 0) }
            if n > 0 { buffer.removeLast(limit - n); return }
            buffer.removeLast(limit)
            if n == 0 { throw FocusError("the compositor closed the connection") }
            if errno == EINTR { buffer.append(contentsOf: repeatElement(0, count: limit)); continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return }
            throw FocusError("read: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(fd)
    }
}
