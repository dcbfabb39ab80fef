#if canImport(Glibc)
import Glibc
#endif

/// One daemon per socket: `SOCKET.lock` beside the socket, held with flock(2) for the daemon's
/// life and holding its pid. A second daemon finds it locked and names the holder; a daemon that
/// died leaves the file unlocked (the kernel drops the lock), so a stale socket is replaced.
final class ControlSocketLock {
    let path: String
    private var fd: Int32

    init(socketPath: String) throws {
        path = socketPath + ".lock"
        // Kept local until the lock is held: an initializer that throws once every property is
        // set runs `deinit`, whose `release` closed the descriptor a second time (a number some
        // other thread may have had by then).
        // Not through a link, and never another user's file: someone who could put a link
        // there must not make the daemon truncate what it points to.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw ControlError("cannot open \(path): it is a symbolic link (refused: the lock is the daemon's own file)") }
            throw ControlError(systemError("cannot open \(path)"))
        }
        var info = stat()
        if fstat(fd, &info) != 0 || info.st_mode & S_IFMT != S_IFREG || info.st_uid != geteuid() {
            let why = info.st_mode & S_IFMT != S_IFREG ? "it is not a regular file" : "it belongs to uid \(info.st_uid)"
            Glibc.close(fd)
            throw ControlError("cannot open \(path): \(why) (refused: the lock is the daemon's own file)")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = Self.readPid(fd)
            Glibc.close(fd)
            let who = holder.map { "process \($0)" } ?? "another process"
            throw ControlSocketBusy("another motionscript daemon (\(who)) already serves \(socketPath); stop it first (motionscript ctl --socket \(socketPath) stop) or choose another --socket")
        }
        self.fd = fd
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    private static func readPid(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: " \n"))
    }

    /// Lets the next daemon in (the file stays: removing it would race a daemon starting now).
    func release() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { release() }
}

/// Another daemon serves the socket: the one failure of the control socket that stops a daemon.
public struct ControlSocketBusy: Error, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        var s = Substring(self)
        while let f = s.first, drop.contains(f) { s = s.dropFirst() }
        while let l = s.last, drop.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
