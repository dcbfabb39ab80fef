import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
@testable import MotionInput
import MotionProxy
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `--proxy` on live input, without a kernel: a FIFO of raw events stands for the touchpad
/// (taken over as one: `selects`), a fake clone records what it is written, a consuming
/// 3-finger swipe is the host. Everything is written before it is read; times are the events'.
@Suite(.timeLimit(.minutes(5))) final class LiveProxyTests {
    final class FakeClone: ProxyClone {
        var frames: [[InputEventRecord]] = []
        var dues: [Double] = []
        var closed = false
        var node: String? { "/dev/input/event99" }
        func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {
            frames.append(frame.map { InputEventRecord(sec: 0, usec: 0, type: $0.type, code: $0.code, value: $0.value) })
            dues.append(due)
        }
        func close() { closed = true }
    }

    /// Feeds the recognizers; notes how many frames the clone had when each pointer frame came.
    final class Host: LiveTarget {
        let recognizers: [GestureRecognizer]
        let clone: FakeClone
        var cloneFramesAtHandle: [Int] = []
        /// Told each frame's number (1: the first) as the host gets it.
        var onHandle: (Int) -> Void = { _ in }
        init(_ recognizers: [GestureRecognizer], clone: FakeClone) { (self.recognizers, self.clone) = (recognizers, clone) }
        func handle(_ frame: Frame) throws {
            cloneFramesAtHandle.append(clone.frames.count)
            onHandle(cloneFramesAtHandle.count)
            for r in recognizers { r.handle(frame) }
        }
        var nextDueTime: Double? { nil }
        func advance(to t: Double) throws {}
        func finish() throws {}
    }

    final class Decisions: ProxyDecisionObserver {
        var all: [ProxyDecision] = []
        func proxy(_ decision: ProxyDecision, device: Int) { all.append(decision) }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)").path
    init() { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// One frame at 10 s + `ms`: `(slot, tracking id or nil to leave it, x)` per finger, then BTN_TOUCH.
    func frame(_ ms: Int, _ fingers: [(slot: Int32, id: Int32?, x: Int32?)], touch: Int32? = nil) -> [InputEventRecord] {
        var out: [InputEventRecord] = []
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            out.append(InputEventRecord(sec: 10, usec: Int64(ms * 1000), type: type, code: code, value: value))
        }
        for f in fingers {
            add(EV.ABS, ABS.MT_SLOT, f.slot)
            if let id = f.id { add(EV.ABS, ABS.MT_TRACKING_ID, id) }
            if let x = f.x {
                add(EV.ABS, ABS.MT_POSITION_X, x)
                if f.id != nil && f.id! >= 0 { add(EV.ABS, ABS.MT_POSITION_Y, 500) }
            }
        }
        if let touch { add(EV.KEY, BTN.TOUCH, touch) }
        add(EV.SYN, SYN.REPORT, 0)
        return out
    }

    func bytes(_ frames: [[InputEventRecord]]) -> [UInt8] {
        frames.joined().flatMap { inputEvent(sec: $0.sec, usec: Int($0.usec), $0.type, $0.code, $0.value) }
    }

    /// Runs `frames` through a proxied FIFO device until its writer closes.
    /// `later`: written once the host handled `after` frames (read apart from the rest).
    func run(_ frames: [[InputEventRecord]], consumers: [GestureRecognizer],
             later: (after: Int, frames: [[InputEventRecord]])? = nil) throws -> (FakeClone, Host, Decisions, [String]) {
        let path = folder + "/pad"
        #expect(mkfifo(path, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        // The events' own times are the arbiter's (as a device on CLOCK_MONOTONIC's are).
        set.members[0].device.timestampsAreMonotonic = true
        let clone = FakeClone()
        var said: [String] = []
        let proxy = LiveProxy(input: set, consumers: { visit in for r in consumers { visit(r) } },
                              makeClone: { _, _ in clone }, selects: { _ in true }, diagnostics: { said.append($0) })
        defer { proxy.close() }
        let decisions = Decisions()
        proxy.observer = decisions
        let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        let data = bytes(frames)
        #expect(data.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == data.count)
        let host = Host(consumers, clone: clone)
        if let later {
            host.onHandle = { n in
                guard n == later.after else { return }
                let more = self.bytes(later.frames)
                #expect(more.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == more.count)
                close(writer)
            }
        } else {
            close(writer)
        }
        _ = try LiveLoop(device: set).run(FrameChain(proxy: proxy, target: host))
        return (clone, host, decisions, said)
    }

    /// A 3-finger swipe left, consumed: the clone gets none of its 12 frames.
    @Test func aConsumedSwipeNeverReachesTheClone() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        var frames = [frame(0, [(0, 1, 3000), (1, 2, 3200), (2, 3, 3400)], touch: 1)]
        for k in 1...10 {
            let x = Int32(3000 - 200 * k)
            frames.append(frame(10 * k, [(0, nil, x), (1, nil, x + 200), (2, nil, x + 400)]))
        }
        frames.append(frame(120, [(0, -1, nil), (1, -1, nil), (2, -1, nil)], touch: 0))
        let (clone, _, decisions, said) = try run(frames, consumers: [swipe])
        #expect(swipe.state == .recognized)
        #expect(clone.frames.isEmpty)
        #expect(clone.closed)
        #expect(decisions.all == [.held(t: 10), .consumed(t: 10.12, frames: 12), .touch(t: 10.12, passed: 0, held: 12, consumed: 12)])
        #expect(said == ["motionscript: proxying \(folder)/pad (\(folder)/pad): the desktop reads its clone /dev/input/event99"])
    }

    /// Without a consumer every frame is decided as it is read: each reached the clone before
    /// the host saw it, unchanged, at its own time.
    @Test func withoutAConsumerEachFrameReachesTheCloneBeforeTheHostRuns() throws {
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), frame(20, [(0, nil, 200)]),
                      frame(30, [(0, -1, nil)], touch: 0)]
        let (clone, host, decisions, _) = try run(frames, consumers: [])
        #expect(clone.frames == frames.map { $0.map { InputEventRecord(sec: 0, usec: 0, type: $0.type, code: $0.code, value: $0.value) } })
        #expect(clone.dues == [10, 10.01, 10.02, 10.03])
        // All four came in one read: all four were written before the host saw the first.
        #expect(host.cloneFramesAtHandle == [4, 4, 4, 4])
        #expect(decisions.all == [.touch(t: 10.03, passed: 4, held: 0, consumed: 0)])
    }

    /// One finger under a 3-finger consumer: held 2 frames (more fingers may come), then
    /// released in order, 20 ms late, and the rest of the touch follows with that lag.
    @Test func aTouchNoConsumerTakesIsReleasedInOrderAtItsPace() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), frame(20, [(0, nil, 200)]),
                      frame(30, [(0, nil, 250)]), frame(40, [(0, -1, nil)], touch: 0)]
        let (clone, host, decisions, _) = try run(frames, consumers: [swipe])
        #expect(clone.frames.count == 5)
        #expect(clone.frames.map { $0.first { $0.code == ABS.MT_POSITION_X }?.value } == [100, 150, 200, 250, nil])
        #expect(clone.dues.map { ($0 * 1000).rounded() / 1000 } == [10.02, 10.03, 10.04, 10.05, 10.06])
        // Decided after the host saw each frame (a consumer could take them).
        #expect(host.cloneFramesAtHandle == [0, 0, 0, 3, 4])
        #expect(decisions.all == [.held(t: 10), .released(t: 10.02, frames: 3, lag: 0.02),
                                  .touch(t: 10.04, passed: 5, held: 3, consumed: 0)])
    }

    /// A frame that makes no pointer frame (a timestamp alone, read after the host saw the
    /// touch end) reaches the clone as it is read: no later pointer frame is waited for (it
    /// waited for one, and with none coming it never reached the clone).
    @Test func aFrameWithoutPointerChangesIsDecidedAsItIsRead() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        let stamp = [InputEventRecord(sec: 10, usec: 90_000, type: EV.MSC, code: 0x05, value: 1234),
                     InputEventRecord(sec: 10, usec: 90_000, type: EV.SYN, code: SYN.REPORT, value: 0)]
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), frame(20, [(0, nil, 200)]),
                      frame(30, [(0, -1, nil)], touch: 0)]
        let (clone, _, _, _) = try run(frames, consumers: [swipe], later: (4, [stamp]))
        #expect(clone.frames.count == 5)
        #expect(clone.frames.last?.first?.value == 1234)
    }

    /// The kernel drops events mid-touch (`SYN_DROPPED`): the clone lifts the finger it has at
    /// once and gets nothing more of that touch; the next touch reaches it.
    @Test func droppedEventsLiftTheClonesFingerUntilTheNextTouch() throws {
        let dropped = [InputEventRecord(sec: 10, usec: 20_000, type: EV.SYN, code: SYN.DROPPED, value: 0),
                       InputEventRecord(sec: 10, usec: 20_000, type: EV.SYN, code: SYN.REPORT, value: 0)]
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), dropped,
                      frame(30, [(0, nil, 250)]), frame(40, [(0, -1, nil)], touch: 0),
                      frame(60, [(0, 8, 400)], touch: 1), frame(70, [(0, -1, nil)], touch: 0)]
        let (clone, _, decisions, _) = try run(frames, consumers: [])
        func summary(_ f: [InputEventRecord]) -> String {
            f.filter { $0.type != EV.SYN }.map { "\($0.code):\($0.value)" }.joined(separator: " ")
        }
        #expect(clone.frames.map(summary) == ["47:0 57:7 53:100 54:500 330:1", "47:0 53:150", "47:0 57:-1 330:0",
                                             "47:0 57:8 53:400 54:500 330:1", "47:0 57:-1 330:0"])
        #expect(decisions.all.contains(.lifted(t: 10.02, fingers: 1, buttons: 0, why: "dropped")))
    }

    /// The device goes away with a finger down: the clone lifts it and is destroyed.
    @Test func aDeviceThatGoesAwayLiftsTheClonesFingerAndDestroysIt() throws {
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)])]
        let (clone, _, decisions, _) = try run(frames, consumers: [])
        #expect(clone.frames.count == 3)
        #expect(clone.frames.last == [InputEventRecord(sec: 0, usec: 0, type: EV.ABS, code: ABS.MT_SLOT, value: 0),
                                      InputEventRecord(sec: 0, usec: 0, type: EV.ABS, code: ABS.MT_TRACKING_ID, value: -1),
                                      InputEventRecord(sec: 0, usec: 0, type: EV.KEY, code: BTN.TOUCH, value: 0),
                                      InputEventRecord(sec: 0, usec: 0, type: EV.SYN, code: SYN.REPORT, value: 0)])
        #expect(clone.closed)
        #expect(decisions.all.count == 1)
        if case .lifted(_, let fingers, let buttons, let why) = decisions.all.first {
            #expect(fingers == 1 && buttons == 0)
            #expect(why == "end")
        } else {
            Issue.record("no lift: \(decisions.all)")
        }
    }

    /// The host stalls in its first frame (a plugin spinning) with a 3-finger consumer waiting
    /// on it: the drain's looks (made here, at the times given, in place of its thread) declare
    /// the stall, and the frame the host is in and the 4 frames written meanwhile reach the
    /// clone before the host is back (without the drain's pass: none did). Once back, the host
    /// handles all 5 pointer frames and the clone gets none twice; the next look says the host
    /// is back and the consumers decide again (the touch ended in the stall).
    @Test func aStalledHostsFramesReachTheCloneWithoutIt() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), frame(20, [(0, nil, 200)]),
                      frame(30, [(0, nil, 250)]), frame(40, [(0, -1, nil)], touch: 0)]
        let path = folder + "/pad"
        #expect(mkfifo(path, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        set.members[0].device.timestampsAreMonotonic = true
        // No drain thread: this test makes its looks.
        set.drain.end()
        let clone = FakeClone()
        let proxy = LiveProxy(input: set, consumers: { visit in visit(swipe) },
                              makeClone: { _, _ in clone }, selects: { _ in true }, diagnostics: { _ in })
        defer { proxy.close() }
        let decisions = Decisions()
        proxy.observer = decisions
        let device = proxy.devices[0]
        let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        let first = bytes([frames[0]])
        #expect(first.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == first.count)
        let host = Host([swipe], clone: clone)
        var cloneFramesInStall: [Int] = []
        host.onHandle = { n in
            if n == 1 {
                let rest = self.bytes(Array(frames[1...]))
                #expect(rest.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == rest.count)
                close(writer)
                for t in [100.0, 100.1, 100.199] { set.drain.look(at: t) }
                cloneFramesInStall.append(clone.frames.count)
                set.drain.look(at: 100.2)
                cloneFramesInStall.append(clone.frames.count)
            } else if n == 2 {
                set.drain.look(at: 100.3)
            }
        }
        _ = try LiveLoop(device: set).run(FrameChain(proxy: proxy, target: host))
        // Under the bound nothing passed; at it, all 5.
        #expect(cloneFramesInStall == [0, 5])
        #expect(clone.frames == frames.map { $0.map { InputEventRecord(sec: 0, usec: 0, type: $0.type, code: $0.code, value: $0.value) } })
        #expect(clone.dues == Array(repeating: -Double.infinity, count: 5))
        #expect(host.cloneFramesAtHandle == [0, 5, 5, 5, 5])
        // One stall; the 13 events of the 4 frames written in it came through the drain.
        #expect(device.stalls == 1 && device.stalledEvents == 13)
        #expect(decisions.all == [.passing(t: 10, why: "stalled"), .touch(t: 10.04, passed: 5, held: 0, consumed: 0),
                                  .proxying(t: 10.04)])
    }

    /// The host stalls in its third frame with nothing more to read: the two frames held for the
    /// 3-finger consumer and the three read and not decided reach the clone at the stall's first
    /// look, at once (the drain had nothing to pass: it tells the device anyway).
    @Test func aStallWithNothingNewReadPassesTheHeldAndQueuedFrames() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        swipe.consumes = true
        let frames = [frame(0, [(0, 7, 100)], touch: 1), frame(10, [(0, nil, 150)]), frame(20, [(0, nil, 200)]),
                      frame(30, [(0, nil, 250)]), frame(40, [(0, -1, nil)], touch: 0)]
        let path = folder + "/pad"
        #expect(mkfifo(path, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(path)])
        defer { set.close() }
        set.members[0].device.timestampsAreMonotonic = true
        set.drain.end()
        let clone = FakeClone()
        let proxy = LiveProxy(input: set, consumers: { visit in visit(swipe) },
                              makeClone: { _, _ in clone }, selects: { _ in true }, diagnostics: { _ in })
        defer { proxy.close() }
        let decisions = Decisions()
        proxy.observer = decisions
        let device = proxy.devices[0]
        let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        let data = bytes(frames)
        #expect(data.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == data.count)
        close(writer)
        let host = Host([swipe], clone: clone)
        var cloneFramesInStall: [Int] = []
        host.onHandle = { n in
            guard n == 3 else { return }
            for t in [100.0, 100.1, 100.199] { set.drain.look(at: t) }
            cloneFramesInStall.append(clone.frames.count)
            set.drain.look(at: 100.2)
            cloneFramesInStall.append(clone.frames.count)
        }
        _ = try LiveLoop(device: set).run(FrameChain(proxy: proxy, target: host))
        #expect(cloneFramesInStall == [0, 5])
        #expect(clone.frames == frames.map { $0.map { InputEventRecord(sec: 0, usec: 0, type: $0.type, code: $0.code, value: $0.value) } })
        #expect(clone.dues == Array(repeating: -Double.infinity, count: 5))
        #expect(host.cloneFramesAtHandle == [0, 0, 0, 5, 5])
        #expect(device.stalls == 1 && device.stalledEvents == 0)
        #expect(decisions.all == [.held(t: 10), .passing(t: 10.02, why: "stalled"), .released(t: 10.02, frames: 2, lag: 0.02),
                                  .touch(t: 10.04, passed: 5, held: 2, consumed: 0)])
    }

    /// A pad plugged in while paused (`ctl pause`, the emergency gesture) passes every frame
    /// as the others do, until `resume` (before: its consumers decided, so a paused daemon
    /// still took gestures from it).
    @Test func aDeviceTakenOverWhilePausedPassesEverythingUntilResume() throws {
        let paths = [folder + "/pad", folder + "/pad2"]
        for path in paths { #expect(mkfifo(path, 0o600) == 0) }
        let set = try LiveDeviceSet(selectors: paths.map { .path($0) })
        defer { set.close() }
        var plugged = false
        let proxy = LiveProxy(input: set, consumers: { _ in }, makeClone: { _, _ in FakeClone() },
                              selects: { $0.node == paths[0] || plugged }, diagnostics: { _ in })
        defer { proxy.close() }
        #expect(proxy.devices.count == 1)
        proxy.pause()
        // The second pad arrives while paused (as hotplug hands it over).
        plugged = true
        set.memberAdded?(set.members[1])
        #expect(proxy.devices.count == 2)
        #expect(proxy.devices.map { $0.with { $0.passReasons.contains(.paused) } } == [true, true])
        proxy.resume()
        #expect(proxy.devices.map { $0.with { $0.passReasons.contains(.paused) } } == [false, false])
    }
}
