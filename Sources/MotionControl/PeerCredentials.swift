#if canImport(Glibc)
import Glibc
#endif

/// The process at the other end of a Unix socket, as the kernel recorded it at connect time
/// (SO_PEERCRED): a peer cannot claim another user.
struct PeerCredentials: Equatable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    /// SO_PEERCRED from <asm-generic/socket.h> (the Swift Glibc module leaves out `struct ucred`,
    /// which glibc declares only under _GNU_SOURCE: pid, uid, gid, 32 bits each).
    private static let soPeerCred: Int32 = 17

    init?(socket fd: Int32) {
        var raw: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: raw))
        guard getsockopt(fd, SOL_SOCKET, Self.soPeerCred, &raw, &length) == 0, length == 12 else { return nil }
        (pid, uid, gid) = raw
    }
}
