import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// pipe() with both ends close-on-exec (the Glibc module does not expose pipe2), so no child
/// that another test, running in parallel in this process, execs keeps a copy of an end. Not
/// enough on its own: a child holds copies of every descriptor from its clone until its exec,
/// and one cloned between pipe() and fcntl() keeps them; so no test may rely on its closing
/// an end being the last (a child process is then the only reader or writer).
func pipeClosingOnExec(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
    guard pipe(fds) == 0 else { return -1 }
    for end in 0..<2 { _ = fcntl(fds[end], F_SETFD, fcntl(fds[end], F_GETFD) | FD_CLOEXEC) }
    return 0
}
