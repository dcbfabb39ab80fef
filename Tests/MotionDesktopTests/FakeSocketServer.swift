import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket a test listens on as a compositor would: accepts clients, writes to them,
/// and can go away (and come back) as a restarted compositor does.
/// Each descriptor is closed once, by `hangUp` or `stop`: a test that closed an accepted client
/// itself and left it in `clients` had `stop` close that number again, when it could already be
/// another test's descriptor (sd-bus aborted the whole run on finding its own closed under it).
final class FakeSocketServer: @unchecked Sendable {
    let path: String
    private var listener: Int32 = -1
    private let lock = NSLock()
    private var open: [Int32] = []
    var clients: [Int32] { lock.withLock { open } }

    init(path: String) throws {
        self.path = path
        try listen()
    }

    func listen() throws {
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0, Glibc.listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// Accepts the client that connected (blocking: the test connected it first).
    @discardableResult
    func accept() -> Int32 {
        let fd = Glibc.accept(listener, nil, nil)
        if fd >= 0 { lock.withLock { open.append(fd) } }
        return fd
    }

    /// Ends the traffic on a connection still open (a writer blocked on it returns), without
    /// closing it: its owner still does (any thread).
    func shutDown(_ fd: Int32) {
        lock.withLock { if open.contains(fd) { _ = shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    /// The compositor closes one connection (any thread).
    func hangUp(_ fd: Int32) {
        let known = lock.withLock { () -> Bool in
            guard let i = open.firstIndex(of: fd) else { return false }
            open.remove(at: i)
            return true
        }
        if known { Glibc.close(fd) }
    }

    /// What a client sent so far (waits up to a second for `count` bytes).
    func read(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while bytes.count < count, poll(&pfd, 1, 1000) > 0 {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The compositor exits: every connection and the listening socket close.
    func stop() {
        let all = lock.withLock { () -> [Int32] in
            defer { open = [] }
            return open
        }
        for fd in all { Glibc.close(fd) }
        if listener >= 0 { Glibc.close(listener) }
        listener = -1
        unlink(path)
    }

    deinit { stop() }
}

func temporarySocketPath(_ label: String) -> String {
    // sun_path is short: a name under /tmp, not the (long) temporary directory of a sandbox.
    "/tmp/ms-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
}

/// Polls until `tracker` reports changes or a second passed (the bytes are in flight locally).
func pollChanges(_ poll: () -> [String?]) -> [String?] {
    for _ in 0..<100 {
        let changes = poll()
        if !changes.isEmpty { return changes }
        usleep(10_000)
    }
    return []
}
