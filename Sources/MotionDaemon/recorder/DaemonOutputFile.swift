#if canImport(Glibc)
import Glibc
#endif
import MotionControl

/// Every file the daemon writes for a client (`ctl record --output`, `ctl scenario`): opened
/// with O_NONBLOCK|O_NOFOLLOW and kept only when it is a regular file. The daemon writes from
/// its one thread, so a path that is a FIFO (whose open or write would wait for a reader), a
/// device or a symbolic link (which would make the daemon write where the link points) is
/// refused with the reason, and the daemon goes on serving input (docs/control.md).
enum DaemonOutputFile {
    /// Opens `path` for writing: created 0644 if missing; an existing regular file is truncated,
    /// unless `exclusive` (then an existing entry of any kind is refused).
    static func open(_ path: String, exclusive: Bool = false) throws -> UnsafeMutablePointer<FILE> {
        let flags = O_WRONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | (exclusive ? O_EXCL : 0)
        let fd = Glibc.open(path, flags, 0o644)
        guard fd >= 0 else {
            let code = errno
            // O_NOFOLLOW says ELOOP; a FIFO without a reader says ENXIO: name what is there.
            if code == ELOOP || code == ENXIO || code == EEXIST, let kind = kind(lstatOf: path), kind != "a regular file" || code == EEXIST {
                throw ControlError("cannot write \(path): it is \(kind)" + (code == EEXIST ? " that exists" : ", not a regular file (the daemon writes regular files only)"))
            }
            throw ControlError("cannot write \(path): \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlError("cannot write \(path): \(message)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            throw ControlError("cannot write \(path): it is \(Self.kind(info.st_mode)), not a regular file (the daemon writes regular files only)")
        }
        if !exclusive, ftruncate(fd, 0) != 0 {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlError("cannot write \(path): \(message)")
        }
        guard let file = fdopen(fd, "wb") else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlError("cannot write \(path): \(message)")
        }
        return file
    }

    static func kind(lstatOf path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kind(info.st_mode)
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }
}
