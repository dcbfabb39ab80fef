import MotionTestSupport
import Foundation
import Testing
import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// The input hub (`LiveDeviceSet`): frames of several devices in timestamp order, one wait per
/// wake-up, other descriptors in the same wait, devices that come back. Everything is written
/// before it is read (FIFOs opened by the set first, so the writers' opens never block): the
/// timestamps are injected, nothing depends on sleeps.
@Suite(.timeLimit(.minutes(5))) struct InputHubTests {
    private final class Folder {
        let path: String
        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("hub-\(UUID().uuidString)").path
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func fifo(_ name: String) -> String {
            let p = path + "/" + name
            #expect(mkfifo(p, 0o600) == 0)
            return p
        }
    }

    /// One frame at `sec.usec`: finger with tracking id `id` at x (down when new), or lifted (x nil).
    private func frame(usec: Int, id: Int32, x: Int32?) -> [UInt8] {
        var events: [(UInt16, UInt16, Int32)] = [(3, 0x2f, 0)]
        if let x { events += [(3, 0x39, id), (3, 0x35, x), (3, 0x36, 0)] } else { events += [(3, 0x39, -1)] }
        return events.flatMap { inputEvent(sec: 10, usec: usec, $0.0, $0.1, $0.2) } + inputEvent(sec: 10, usec: usec, 0, 0, 0)
    }

    /// A writer on a FIFO the set already reads (so open does not block).
    private func writer(_ path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(fd >= 0)
        return fd
    }

    private func put(_ fd: Int32, _ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    private func summary(_ frame: Frame, _ names: [String: String]) -> String {
        frame.events.map { "\(names[$0.device?.name ?? ""] ?? "?") \($0.phase.rawValue) \($0.t)" }.joined(separator: ", ")
    }

    /// Device a's frames are at 10.1 and 10.2 s, b's at 10.0 and 10.3 s, all readable at once:
    /// they come out 10.0, 10.1, 10.2, 10.3 (before: a, b, a, b, device by device), after one wait.
    @Test func framesOfSeveralDevicesComeOutInTimestampOrderAfterOneWait() throws {
        let folder = Folder()
        let a = folder.fifo("a"), b = folder.fifo("b")
        let set = try LiveDeviceSet(selectors: [.path(a), .path(b)])
        defer { set.close() }
        let wa = writer(a), wb = writer(b)
        defer { close(wa); close(wb) }
        put(wa, frame(usec: 100_000, id: 1, x: 10) + frame(usec: 200_000, id: 1, x: nil))
        put(wb, frame(usec: 0, id: 2, x: 20) + frame(usec: 300_000, id: 2, x: nil))
        var out: [String] = []
        for _ in 0..<4 {
            guard case .frame(let f) = try set.nextFrame(timeout: 5) else { break }
            out.append(summary(f, [a: "a", b: "b"]))
        }
        #expect(out == ["b down 0.0", "a down 0.1", "a up 0.2", "b up 0.3"])
        #expect(set.waits == 1)
    }

    /// A watched pipe is in the same wait: its handler runs on the calling thread and
    /// `nextFrame` answers `.timeout` when no frame is ready; with a frame ready too, both
    /// happen in one wake-up. After `unwatch` the pipe no longer wakes the wait.
    @Test func aWatchedDescriptorsHandlerRunsInTheSameWait() throws {
        let folder = Folder()
        let a = folder.fifo("a")
        let set = try LiveDeviceSet(selectors: [.path(a)])
        defer { set.close() }
        var ends: [Int32] = [0, 0]
        #expect(pipeClosingOnExec(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var got: [UInt8] = []
        let token = set.loop.register(fd: ends[0]) {
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) == 1 { got.append(byte) }
        }
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try set.nextFrame(timeout: 5) == .timeout)
        #expect(got == [7])
        #expect(set.waits == 1)

        let wa = writer(a)
        defer { close(wa) }
        byte = 8
        #expect(write(ends[1], &byte, 1) == 1)
        put(wa, frame(usec: 0, id: 1, x: 10))
        guard case .frame(let f) = try set.nextFrame(timeout: 5) else { Issue.record("no frame"); return }
        #expect(summary(f, [a: "a"]) == "a down 0.0")
        #expect(got == [7, 8])
        #expect(set.waits == 2)

        set.loop.unregister(token)
        byte = 9
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(got == [7, 8])
        #expect(set.loop.registeredDescriptors.isEmpty)
    }

    /// With `waitsForDevices`, a device named by path that goes away (its node removed) is
    /// waited for and read again when the node is back; input does not end. Without it, the
    /// same input ends.
    @Test func aDeviceThatGoesAwayIsReadAgainWhenItComesBack() throws {
        let folder = Folder()
        let a = folder.fifo("a")
        var said: [String] = []
        let set = try LiveDeviceSet(selectors: [.path(a)], waitsForDevices: true) { said.append($0) }
        defer { set.close() }
        var wa = writer(a)
        put(wa, frame(usec: 0, id: 1, x: 10))
        close(wa)
        #expect(unlink(a) == 0)
        guard case .frame(let first) = try set.nextFrame(timeout: 5) else { Issue.record("no frame"); return }
        #expect(summary(first, [a: "a"]) == "a down 0.0")
        // The writer went away with the finger down: cancelled; then the node is gone.
        guard case .frame(let cancel) = try set.nextFrame(timeout: 5) else { Issue.record("no cancel"); return }
        #expect(summary(cancel, [a: "a"]) == "a cancel 0.0")
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(said.last == "motionscript: \(a): end of input; waiting for it to come back")
        #expect(set.members.isEmpty)

        _ = folder.fifo("a")
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(said.last == "motionscript: \(a) is back; reading it again")
        wa = writer(a)
        defer { close(wa) }
        put(wa, frame(usec: 500_000, id: 3, x: 30))
        guard case .frame(let again) = try set.nextFrame(timeout: 5) else { Issue.record("no frame after coming back"); return }
        #expect(again.events.map(\.phase) == [.down])
        #expect(again.events.first?.device?.name == a)

        let other = folder.fifo("b")
        let plain = try LiveDeviceSet(selectors: [.path(other)])
        defer { plain.close() }
        let wb = writer(other)
        close(wb)
        #expect(try plain.nextFrame(timeout: 5) == .end("end of input"))
    }

    /// The events the kernel reports for the set's watched directories (its fdinfo), one mask
    /// per watch.
    private func watchMasks(_ set: LiveDeviceSet) -> [UInt32] {
        guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(set.hotplugDescriptor)", encoding: .utf8) else { return [] }
        return info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("mask:") }.flatMap { UInt32($0.dropFirst(5), radix: 16) }
        }
    }

    /// A watched directory reports its nodes' attribute changes (IN_ATTRIB: udev giving a new
    /// node its group) only while a node is waited for: such a watch makes the kernel take a
    /// reference on the directory at every read of every node in it, ours and other programs'
    /// (the daemon: some 5,000 instructions per frame). Seen failing with the old fixed mask.
    @Test func nodeAttributesAreWatchedOnlyWhileANodeIsWaitedFor() throws {
        let folder = Folder()
        let a = folder.fifo("a")
        let set = try LiveDeviceSet(selectors: [.path(a)], waitsForDevices: true)
        defer { set.close() }
        let plain = UInt32(IN_CREATE | IN_MOVED_TO), attributes = UInt32(IN_ATTRIB)
        #expect(!set.watchesAttributes)
        #expect(watchMasks(set).map { $0 & (plain | attributes) } == [plain])

        // The device goes away (its writer, then its node): waited for, attributes watched.
        let wa = writer(a)
        put(wa, frame(usec: 0, id: 1, x: 10))
        close(wa)
        #expect(unlink(a) == 0)
        guard case .frame = try set.nextFrame(timeout: 5), case .frame = try set.nextFrame(timeout: 5) else {
            Issue.record("no touch and cancel")  // the touch, then its cancel
            return
        }
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(set.members.isEmpty)
        #expect(set.watchesAttributes)
        #expect(watchMasks(set).map { $0 & (plain | attributes) } == [plain | attributes])

        // Back: read again, and attributes are no longer watched.
        _ = folder.fifo("a")
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(set.members.count == 1)
        #expect(!set.watchesAttributes)
        #expect(watchMasks(set).map { $0 & (plain | attributes) } == [plain])
    }

    /// Stopping ends input even while a watched descriptor and devices wait.
    @Test func stopEndsTheWait() throws {
        let folder = Folder()
        let set = try LiveDeviceSet(selectors: [.path(folder.fifo("a"))], waitsForDevices: true)
        defer { set.close() }
        set.stop()
        #expect(try set.nextFrame(timeout: 5) == .end("stopped"))
    }
}

/// Live pointer events take the same C bridge as pointers from files: the `device` table is
/// made once per device and shared by its events.
@Suite(.timeLimit(.minutes(5))) struct LiveDeviceTableTests {
    @Test func eventsOfOneDeviceShareOneDeviceTable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("devtable-\(UUID().uuidString).lua").path
        try """
            local seen, tables = {}, 0
            motion.pointers():subscribe(function(p)
              if not seen[p.device] then seen[p.device] = true; tables = tables + 1 end
              motion.emit("d", p.device.name .. " " .. p.device.kind .. " " .. tables)
            end)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let output = CollectedOutput()
        let runtime = try LuaRuntime(scriptPath: path, output: output)
        defer { runtime.close() }
        try runtime.load()
        let pad = PointerDevice(name: "bcm5974", kind: "touchpad"), screen = PointerDevice(name: "ELAN", kind: "touchscreen")
        for (i, device) in [pad, pad, screen, pad, screen].enumerated() {
            let t = Double(i)
            try runtime.handle(Frame(t: t, events: [PointerEvent(t: t, id: 1, phase: i == 0 ? .down : .move, x: 1, y: 2, device: device)]))
        }
        #expect(output.lines.map { $0.split(separator: "\"").dropLast().last.map(String.init) ?? "" } == ["bcm5974 touchpad 1", "bcm5974 touchpad 1", "ELAN touchscreen 2", "bcm5974 touchpad 2", "ELAN touchscreen 2"])
    }
}

/// `run --watch` on live input waits in the input hub's one wait, its file watcher included:
/// idle, it does not wake (before: a 20 ms polling interval, some 15 wake-ups in the 0.3 s of
/// quiet below, and a second wait on the watcher per frame).
@Suite(.timeLimit(.minutes(5))) struct WatchInHubTests {
    @Test func anIdleWatchedLiveRunDoesNotWakeUp() throws {
        let folder = makeTemporaryFolder("watch-hub")
        let script = writeFile("motion.pointers():emit('p')\n", "w.lua", in: folder)
        let fifo = folder.appendingPathComponent("dev").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let set = try LiveDeviceSet(selectors: [.path(fifo)])
        defer { set.close() }
        let output = CollectedOutput()
        // The frame follows the reload (during the quiet time it would go to the old version).
        let reloaded = DispatchSemaphore(value: 0)
        let session = try WatchSession(RunOptions(scriptPath: script), output: output) { line in
            if line.hasPrefix("-- reloaded") { reloaded.signal() }
        }
        let frame = [(UInt16(3), UInt16(0x2f), Int32(0)), (3, 0x39, 1), (3, 0x35, 5), (3, 0x36, 6), (0, 0, 0)]
            .flatMap { inputEvent(sec: 10, usec: 0, $0.0, $0.1, $0.2) }
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            usleep(300_000)  // the quiet stretch whose wake-ups are counted (not an ordering)
            writeFile("motion.pointers():emit('q')\n", "w.lua", in: folder)
            _ = reloaded.wait(timeout: .now() + 10)
            _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        #expect(try session.runLive(set) == "end of input")
        #expect(output.lines.contains { $0.contains(#""reload":"w.lua","version":2"#) })
        #expect(set.waits < 10, "\(set.waits) waits")
    }
}
