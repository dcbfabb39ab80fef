#if canImport(Glibc)
import MotionTestSupport
import Glibc
#endif
import Testing
@testable import MotionInput

/// The live loop's wait: a deadline in nanoseconds, never early, and nothing a computed wait can
/// be (past, NaN, far away) makes it block or trap.
@Suite struct PollWaitTests {
    private func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    private func withIdlePipe(_ body: (inout [pollfd]) -> Void) {
        var ends: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var fds = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        body(&fds)
    }

    @Test func aWaitOfAFractionOfAMillisecondLastsAtLeastThatLong() {
        withIdlePipe { fds in
            for wanted in [0.0003, 0.0017, 0.0101] {
                let start = monotonic()
                #expect(pollWait(&fds, seconds: wanted) == 0)
                #expect(monotonic() - start >= wanted)
            }
        }
    }

    @Test func pastNaNAndNegativeWaitsReturnAtOnce() {
        withIdlePipe { fds in
            for wait in [0.0, -1.0, -.infinity, .nan, -.greatestFiniteMagnitude] {
                #expect(pollWait(&fds, seconds: wait) == 0)
            }
        }
    }

    @Test func readyInputEndsAFarWait() {
        withIdlePipe { fds in
            var ends: [Int32] = [0, 0]
            #expect(pipeClosingOnExec(&ends) == 0)
            defer { close(ends[0]); close(ends[1]) }
            #expect(write(ends[1], "x", 1) == 1)
            var ready = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
            #expect(pollWait(&ready, seconds: .infinity) == 1)
            #expect(pollWait(&ready, seconds: .greatestFiniteMagnitude) == 1)
            #expect(pollWait(&ready, seconds: nil) == 1)
        }
    }
}
