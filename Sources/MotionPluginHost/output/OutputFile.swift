#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// Why an output file could not be written: the path and the system's reason.
public struct OutputFileError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// How every file the program writes (`plot -o`, `run --plot`, `test --junit`, `test --update`)
/// reaches its path. A regular file (or a path where nothing is) is replaced whole: the bytes
/// go to a temporary file beside it that is renamed over it, so a reader never sees half a
/// file. Anything else is written through, never replaced: a character device (`/dev/null`,
/// `/dev/stdout`'s terminal), a FIFO (its reader gets the bytes) and a symlink (its target:
/// `/dev/stdout` stays a link). See "Output files" in docs/reference.md.
public enum OutputFile {
    /// Writes `bytes` to `path` by the rule above. Waiting for a FIFO's reader ends when
    /// `stop()` says so (SIGINT/SIGTERM, by default) with an error that says it was interrupted.
    public static func write(_ bytes: [UInt8], to path: String,
                             stop: () -> Bool = { Interruption.isRequested }) throws(OutputFileError) {
        var link = stat()
        if lstat(path, &link) == 0 {
            let kind = link.st_mode & S_IFMT
            if kind == S_IFDIR { throw OutputFileError(path: path, reason: "it is a folder") }
            if kind != S_IFREG {
                try writeThrough(bytes, to: path, stop: stop)
                return
            }
        } else if errno != ENOENT {
            throw failure(path)
        }
        try replace(path, with: bytes)
    }

    /// Checks now, before long work, that `write(_:to:)` can succeed later: the folder exists
    /// and can take a new file, or the path can be opened for writing. Creates nothing, and
    /// never opens a FIFO (that would wait for its reader).
    public static func checkWritable(_ path: String) throws(OutputFileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR { throw OutputFileError(path: path, reason: "it is a folder") }
            if kind == S_IFIFO || kind == S_IFCHR { return }
            if access(path, W_OK) != 0 { throw failure(path) }
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK { return }
        } else if errno != ENOENT {
            throw failure(path)
        }
        let folder = folder(of: path)
        if access(folder, W_OK | X_OK) != 0 { throw failure(path) }
    }

    // MARK: replacing a regular file

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func replace(_ path: String, with bytes: [UInt8]) throws(OutputFileError) {
        let name = path.split(separator: "/").last.map(String.init) ?? "output"
        var template = Array("\(folder(of: path))/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path) }
        let temporary = String(cString: template)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        // The file replaced keeps its permissions; a new one gets what open(0666) and the umask give.
        var existing = stat()
        let mode: mode_t
        if stat(path, &existing) == 0 {
            mode = existing.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        fchmod(fd, mode)
        let written = writeAll(fd, bytes)
        let closed = close(fd) == 0
        guard written == nil, closed else {
            throw OutputFileError(path: path, reason: written ?? String(cString: strerror(errno)))
        }
        guard rename(temporary, path) == 0 else { throw failure(path) }
        done = true
    }

    // MARK: writing through

    /// A device, FIFO or symlink: opened and written as it is, never replaced. A FIFO is
    /// opened without blocking (which fails while it has no reader) and retried every 20 ms,
    /// so a signal ends the wait.
    private static func writeThrough(_ bytes: [UInt8], to path: String, stop: () -> Bool) throws(OutputFileError) {
        var said = false
        var fd: Int32
        while true {
            fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o666)
            if fd >= 0 { break }
            guard errno == ENXIO else { throw failure(path) }
            if stop() { throw OutputFileError(path: path, reason: "interrupted while waiting for a reader of the FIFO") }
            if !said {
                StandardError.line("motionscript: waiting for a reader of \(path) (a FIFO); Ctrl-C stops")
                said = true
            }
            poll(nil, 0, 20)
        }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // A regular file behind a symlink is rewritten from its start, not appended to.
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG { _ = ftruncate(fd, 0) }
        if let reason = writeAll(fd, bytes) { throw OutputFileError(path: path, reason: reason) }
    }

    /// Nil when all was written, else why not. A FIFO whose reader went away fails with
    /// "Broken pipe", not SIGPIPE.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else {
                return n == 0 ? "nothing was written" : String(cString: strerror(errno))
            }
        }
        return nil
    }

    /// write(2) with SIGPIPE blocked for the call, so a reader that left is an error, not the end.
    private static func send(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeOnly = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        let n = Glibc.write(fd, buffer, count)
        let saved = errno
        if n < 0 && saved == EPIPE {
            // Take the SIGPIPE the write raised off the pending set before unblocking.
            var timeout = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeOnly, nil, &timeout)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = saved
        return n
    }

    private static func failure(_ path: String) -> OutputFileError {
        OutputFileError(path: path, reason: String(cString: strerror(errno)))
    }
}
