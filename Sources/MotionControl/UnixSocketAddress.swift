#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` for a path; a leading "@" names the abstract namespace (as systemd writes
/// `NOTIFY_SOCKET`).
public struct UnixSocketAddress {
    var storage = sockaddr_un()
    public var length: socklen_t

    public init?(_ path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let base = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        // A path socket's name ends at its NUL; an abstract one is exactly its bytes.
        length = socklen_t(base + bytes.count + (abstract ? 0 : 1))
    }

    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}

func systemError(_ what: String) -> String {
    "\(what): \(String(cString: strerror(errno)))"
}
