import Foundation
import MotionTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// When the host counts as stalled (`HostStallWatch`, 200 ms), and what the drain does then
/// (`InputDrain.look`): the looks are made by the test at the times it gives, no thread, no sleep.
@Suite struct HostStallTests {
    @Test func aStallIsDeclaredAfterTheBoundCountedFromTheFirstBusyLook() {
        var watch = HostStallWatch()
        #expect(watch.look(sequence: 1, at: 0) == .moved)
        #expect(watch.look(sequence: 1, at: 0.025) == .waiting)
        // Left `nextFrame` with a frame (2): busy from the first look that sees it.
        #expect(watch.look(sequence: 2, at: 0.050) == .moved)
        #expect(watch.look(sequence: 2, at: 0.075) == .busy)
        #expect(watch.look(sequence: 2, at: 0.249) == .busy)
        #expect(watch.look(sequence: 2, at: 0.250) == .stalled(began: true))
        #expect(watch.look(sequence: 2, at: 0.251) == .stalled(began: false))
        #expect(watch.isStalled)
        // Back in `nextFrame` (3), then busy again at 4: a new count.
        #expect(watch.look(sequence: 3, at: 0.260) == .back)
        #expect(!watch.isStalled)
        #expect(watch.look(sequence: 4, at: 0.270) == .moved)
        #expect(watch.look(sequence: 4, at: 0.469) == .busy)
        #expect(watch.look(sequence: 6, at: 0.480) == .moved)
        #expect(watch.look(sequence: 6, at: 0.679) == .busy)
        #expect(watch.look(sequence: 6, at: 0.680) == .stalled(began: true))
        // Back and away again between two looks: back, and the new busy time counts from here.
        #expect(watch.look(sequence: 8, at: 0.700) == .back)
        #expect(watch.look(sequence: 8, at: 0.899) == .busy)
        #expect(watch.look(sequence: 8, at: 0.900) == .stalled(began: true))
    }

    final class Lane: StallPassThrough {
        var events: [InputEventRecord] = []
        var calls = 0
        var backs = 0
        func stalled(_ events: UnsafeBufferPointer<InputEventRecord>) {
            self.events += events
            calls += 1
        }
        func hostBack() { backs += 1 }
    }

    func frame(_ n: Int) -> [UInt8] {
        rawBytes([axis(Double(n), ABS.MT_SLOT, 0), axis(Double(n), ABS.MT_POSITION_X, Int32(n)), syn(Double(n))])
    }

    @Test func aStalledHostsDevicesArePassedOnceInOrderUntilItIsBack() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        let lane = Lane()
        reader.stallPass = lane
        let drain = InputDrain()
        drain.enter()
        drain.setReaders([reader])
        drain.leave(handingFrame: false)
        func put(_ bytes: [UInt8]) { #expect(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count) }
        put(frame(1) + frame(2))
        drain.look(at: 10.000)
        drain.look(at: 10.100)
        // Busy under the bound: drained, nothing passed.
        #expect(drain.drains == 1)
        #expect(lane.calls == 0)
        put(frame(3))
        drain.look(at: 10.200)
        #expect(drain.stalls == 1)
        #expect(lane.events.map(\.value) == [0, 1, 0, 0, 2, 0, 0, 3, 0])
        put(frame(4))
        drain.look(at: 10.210)
        #expect(lane.events.map(\.value) == [0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0])
        drain.look(at: 10.220)
        // Two with events, and one at the stall's first look (told even when nothing was drained).
        #expect(lane.calls == 3)
        // The host is back in `nextFrame`: the lane is told once.
        drain.enter()
        drain.look(at: 10.230)
        drain.look(at: 10.240)
        #expect(lane.backs == 1)
        drain.leave(handingFrame: false)
        // A new busy spell under the bound passes nothing.
        put(frame(5))
        drain.look(at: 10.250)
        drain.look(at: 10.300)
        #expect(lane.calls == 3)
        #expect(drain.stalls == 1)
    }

    /// A lane the drain's own thread tells (a lock: the test's thread reads what it was told).
    final class LockedLane: StallPassThrough, @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int32] = []
        private var backs = 0
        func stalled(_ events: UnsafeBufferPointer<InputEventRecord>) {
            lock.lock()
            values += events.map(\.value)
            lock.unlock()
        }
        func hostBack() {
            lock.lock()
            backs += 1
            lock.unlock()
        }
        var told: (values: [Int32], backs: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (values, backs)
        }
    }

    /// Waits (up to 10 s: a deadline, not an ordering) until `done`.
    func within(_ done: () -> Bool) -> Bool {
        let deadline = LiveEventReader.now() + 10
        while !done() {
            if LiveEventReader.now() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    @Test func theDrainsOwnThreadPassesAStalledHostsFramesAsTheyComeAndSaysWhenItIsBack() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let reader = try LiveEventReader(fileDescriptor: fds[0], ownsDescriptor: true)
        let lane = LockedLane()
        reader.stallPass = lane
        let drain = InputDrain()
        drain.start()
        defer { drain.end() }
        drain.enter()
        drain.setReaders([reader])
        // A frame handed over: the host is busy from here (the test's thread never comes back).
        drain.leave(handingFrame: true)
        func put(_ bytes: [UInt8]) { #expect(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count) }
        put(frame(1))
        #expect(within { lane.told.values.count == 3 })
        // Stalled: each frame written now is passed without the host.
        for n in 2...5 {
            put(frame(n))
            #expect(within { lane.told.values.count == 3 * n })
        }
        #expect(lane.told.values == [0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0])
        #expect(lane.told.backs == 0)
        drain.enter()
        #expect(within { lane.told.backs == 1 })
        drain.leave(handingFrame: false)
        #expect(drain.stalls == 1)
    }
}
