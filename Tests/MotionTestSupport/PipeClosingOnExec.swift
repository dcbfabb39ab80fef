import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A pipe with both ends close-on-exec from the start (pipe2 with O_CLOEXEC), so no child that
/// another test, running in parallel in this process, execs keeps a copy of an end. Still, a
/// child holds copies of every descriptor from its clone until its exec: no test may rely on its
/// closing an end being the last (a child process is then the only reader or writer).
public func pipeClosingOnExec(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
    pipe2(fds, O_CLOEXEC)
}
