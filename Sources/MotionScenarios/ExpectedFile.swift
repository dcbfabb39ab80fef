#if canImport(Glibc)
import Glibc
#endif

/// An expected file opened for reading its lines a chunk at a time. Only a regular file: a FIFO
/// would block the batch.
final class ExpectedFile {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else { throw Self.error(path, String(cString: strerror(errno))) }
        guard info.st_mode & UInt32(S_IFMT) == UInt32(S_IFREG) else { throw Self.error(path, "not a regular file") }
        // Non-blocking, should the path have become a FIFO since: then the check below refuses it.
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Self.error(path, String(cString: strerror(errno))) }
        guard fstat(fd, &info) == 0, info.st_mode & UInt32(S_IFMT) == UInt32(S_IFREG) else {
            close(fd)
            throw Self.error(path, "not a regular file")
        }
    }

    deinit { close(fd) }

    /// A reader of the file's lines from its start (each reader reads on its own).
    func lines() -> ExpectedLineReader {
        var offset = 0
        return ExpectedLineReader { [self] space in
            let count = try read(into: space, at: offset)
            offset += count
            return count
        }
    }

    /// Reads into `space` from `offset`; 0 at the end of the file.
    private func read(into space: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        while true {
            let n = pread(fd, space.baseAddress, space.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw Self.error(path, String(cString: strerror(errno))) }
        }
    }

    private static func error(_ path: String, _ reason: String) -> ExpectedFileError {
        ExpectedFileError(description: "cannot read \(path): \(reason)")
    }
}
