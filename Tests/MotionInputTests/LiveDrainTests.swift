import MotionTestSupport
import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// After `SYN_DROPPED` the queued events are stale: the reader drains and discards them (what it
/// buffered and what the descriptor still holds) before the device state is read back.
@Suite struct LiveDrainTests {
    @Test func discardQueuedDrainsTheBufferAndTheDescriptorAndCountsFrames() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[1]) }
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        defer { reader.close() }
        // Three frames of two events each: the reader buffers them all on its first read.
        let stale: [InputEventRecord] = [axis(0, ABS.MT_POSITION_X, 1), syn(0), axis(16, ABS.MT_POSITION_X, 2), syn(16),
                                             axis(32, ABS.MT_POSITION_X, 3), syn(32)]
        let bytes = rawBytes(stale)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        #expect(try reader.next(timeout: 5) == .event(stale[0]))
        // More stale events still in the pipe, not yet read.
        let more = rawBytes([axis(48, ABS.MT_POSITION_X, 4), syn(48)])
        _ = more.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        let discarded = reader.discardQueued()
        #expect(discarded.events == 7)
        #expect(discarded.frames == 4)
        #expect(discarded.last?.sec == 1000 && discarded.last?.usec == 48_000)
        // Reading goes on with what comes after.
        let fresh = rawBytes([axis(64, ABS.MT_POSITION_X, 5)])
        _ = fresh.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        #expect(try reader.next(timeout: 5) == .event(axis(64, ABS.MT_POSITION_X, 5)))
    }

    @Test func discardQueuedWithNothingQueuedDiscardsNothing() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&fds) == 0)
        defer { close(fds[1]) }
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        defer { reader.close() }
        #expect(reader.discardQueued() == LiveEventReader.Discarded())
    }
}
