import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// Messages from other threads reach the loop's thread through its one wait (`LoopMailbox`).
@Suite(.timeLimit(.minutes(1))) struct LoopMailboxTests {
    final class Delivered: @unchecked Sendable {
        var messages: [String] = []
        let orphans = Mutex<[String]>([])
    }

    private func mailbox(_ loop: EventLoop, _ delivered: Delivered) throws -> LoopMailbox<String> {
        try LoopMailbox<String>(loop: loop, deliver: { delivered.messages.append($0) },
                                dropped: { "dropped \($0)" }, orphan: { m in delivered.orphans.withLock { $0.append(m) } })
    }

    @Test func postsFromAnotherThreadWakeTheWaitAndArriveInOrder() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let delivered = Delivered()
        let box = try mailbox(loop, delivered)
        defer { box.close() }
        let poster = Thread { for m in ["a", "b", "c"] { box.post(m) } }
        poster.start()
        // Waits without a time limit: only the mailbox can wake them.
        var waits = 0
        while delivered.messages.count < 3 && waits < 10 {
            _ = try loop.wait(seconds: nil)
            waits += 1
        }
        #expect(delivered.messages == ["a", "b", "c"])
        #expect(waits <= 3)
    }

    @Test func atMostCapacityWaitAndTheRestAreCounted() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let delivered = Delivered()
        let box = try mailbox(loop, delivered)
        defer { box.close() }
        for i in 0..<300 { box.post("m\(i)") }
        #expect(try loop.wait(seconds: 1) == .ready(handled: true))
        #expect(delivered.messages.count == 257)
        #expect(delivered.messages[255] == "m255")
        #expect(delivered.messages.last == "dropped 44")
        // Room again: the next one is kept.
        box.post("next")
        _ = try loop.wait(seconds: 1)
        #expect(delivered.messages.last == "next")
    }

    /// `close()` delivers what waits; a post after it goes to `orphan` and writes into no
    /// descriptor (its number may belong to someone else by then).
    @Test func closeDeliversWhatWaitsAndLaterPostsAreOrphans() throws {
        let loop = try EventLoop()
        defer { loop.close() }
        let delivered = Delivered()
        let box = try mailbox(loop, delivered)
        box.post("before")
        box.close()
        #expect(delivered.messages == ["before"])
        box.post("after")
        #expect(delivered.orphans.withLock { $0 } == ["after"])
        #expect(delivered.messages == ["before"])
    }
}
