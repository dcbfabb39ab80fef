import MotionTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking test client that writes raw lines, so a test can serve the server between steps.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(path)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { throw NSError(domain: "connect", code: Int(errno)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        return address
    }

    func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func readLineNow() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { buffer.append(contentsOf: chunk[..<n]) }
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
    }

    func close() { Glibc.close(fd) }

    /// Forks a child that becomes `uid`, connects, sends `request` and passes back the first line
    /// it reads through a pipe; `serve` runs in the parent meanwhile. The child makes system
    /// calls only (it is a fork of a threaded process).
    static func answerAsUser(_ uid: UInt32, path: String, request: String, serve: () -> Void) throws -> String {
        var address = Self.address(path)
        let requestBytes = Array((request + "\n").utf8)
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipeClosingOnExec(&fds), 0)
        var buffer = [UInt8](repeating: 0, count: 1024)
        let pid = fork()
        if pid == 0 {
            Glibc.close(fds[0])
            if setgid(uid) != 0 || setuid(uid) != 0 { _exit(10) }
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if ok != 0 { _exit(11) }
            _ = requestBytes.withUnsafeBytes { send(s, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var total = 0
            while total < 1024 {
                let n = buffer.withUnsafeMutableBytes { recv(s, $0.baseAddress! + total, 1024 - total, 0) }
                if n <= 0 { break }
                total += n
                if buffer[..<total].contains(0x0A) { break }
            }
            _ = buffer.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, total) }
            _exit(0)
        }
        Glibc.close(fds[1])
        var status: Int32 = 0
        for _ in 0..<500 {
            serve()
            if waitpid(pid, &status, WNOHANG) == pid { break }
        }
        var out: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out.append(contentsOf: buffer[..<n])
        }
        Glibc.close(fds[0])
        XCTAssertEqual(status, 0, "the child's exit status (10: setuid failed, 11: connect failed)")
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
