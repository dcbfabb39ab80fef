import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// Runs alone (scripts/test's alone pass, `*AloneTests`): it puts a pipe on a descriptor number it
/// has just freed, which beside other tests could be one another test opened in between (and
/// would then be closed under it).
@Suite struct ReaderStopAfterCloseAloneTests {
    /// `stop()` after `close()` writes nothing: the wake-up pipe's number may belong to someone
    /// else by then (here a pipe put on that very number), and a byte written into a socket whose
    /// peer has gone raises SIGPIPE in the whole process.
    @Test func stopAfterCloseWritesIntoNoReusedDescriptor() throws {
        var source: [Int32] = [0, 0]
        #expect(pipe(&source) == 0)
        defer { Glibc.close(source[0]); Glibc.close(source[1]) }
        let reader = try LiveEventReader(fileDescriptor: source[0])
        let oldWake = reader.stopFileDescriptor
        reader.close()
        var other: [Int32] = [0, 0]
        #expect(pipe(&other) == 0)
        _ = fcntl(other[0], F_SETFL, O_NONBLOCK)
        // The other pipe's write end takes the closed wake-up pipe's number (pipe() may have
        // given it that number already).
        if other[1] != oldWake {
            #expect(dup2(other[1], oldWake) == oldWake)
            Glibc.close(other[1])
        }
        defer { Glibc.close(other[0]); Glibc.close(oldWake) }
        reader.stop()
        var byte: UInt8 = 0
        let n = read(other[0], &byte, 1)
        #expect(n == -1 && errno == EAGAIN, "stop() after close() wrote \(n) byte(s) into descriptor \(oldWake)")
    }
}
