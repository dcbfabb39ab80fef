#if canImport(Glibc)
import Glibc
#endif

/// A pipe (close-on-exec) as a reader that stopped reading leaves it: `line` written until the
/// pipe takes no more, then its write end blocking again. Returns the ends and how many lines
/// went in (a write of at most PIPE_BUF bytes goes in whole or not at all); nil when no pipe.
public func fullPipe(of line: [UInt8]) -> (read: Int32, write: Int32, lines: Int)? {
    var fds: [Int32] = [0, 0]
    guard pipeClosingOnExec(&fds) == 0 else { return nil }
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    var lines = 0
    while line.withUnsafeBytes({ write(fds[1], $0.baseAddress, $0.count) }) == line.count { lines += 1 }
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) & ~O_NONBLOCK)
    return (fds[0], fds[1], lines)
}
