import Foundation
import Testing
import MotionDaemon
import MotionGestures
import MotionPluginHost
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// Live input from a list of frames; input time is the last frame's.
private final class FrameList: LiveFrameSource {
    var frames: [Frame]
    var now = 0.0
    var started = false

    init(_ frames: [Frame]) { self.frames = frames }

    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        guard !frames.isEmpty else { return .end("end of input") }
        let frame = frames.removeFirst()
        now = max(now, frame.t)
        started = true
        return .frame(frame)
    }

    func inputTimeNow() -> Double? { started ? now : nil }
    func stop() { frames = [] }
}

/// The order a live frame goes through the daemon (`FrameChain`): the emergency gesture, then
/// the host; the flight recorder keeps the raw input as it is decoded, whatever the host does.
@Suite struct FrameChainTests {
    /// Five fingers down at `t` (x 100…500), each `id` from `first`.
    static func fiveDown(_ t: Double, first: Int) -> Frame {
        Frame(t: t, events: (0..<5).map { PointerEvent(t: t, id: first + $0, phase: .down, x: Double(100 * ($0 + 1)), y: 100) })
    }

    static func move(_ t: Double, id: Int, x: Double) -> Frame {
        Frame(t: t, events: [PointerEvent(t: t, id: id, phase: .move, x: x, y: 100)])
    }

    static func fiveUp(_ t: Double, first: Int) -> Frame {
        Frame(t: t, events: (0..<5).map { PointerEvent(t: t, id: first + $0, phase: .up, x: Double(100 * ($0 + 1)), y: 100) })
    }

    /// The plugin's lines as "t phase".
    static func seen(_ host: PluginHost, _ plugin: String) -> [String] {
        host.lines(of: plugin).filter { $0.contains(#""name":"p""#) }.map { line in
            let t = line.split(separator: ",")[0].dropFirst(#"{"t":"#.count)
            let phase = line.split(separator: "\"").dropLast().last ?? ""
            return "\(t) \(phase)"
        }
    }

    /// The gesture fires with the frame at 3 s (five fingers still since 0 s): the host is
    /// paused before that frame reaches it, so no plugin sees it nor the lift after; the
    /// gesture goes on seeing frames while paused, and fires again at 7 s: the host resumes
    /// before that frame goes on, which reaches the plugins. (With the host before the gesture
    /// the plugins would see the move at 3 s and not the one at 7 s.)
    @Test func theEmergencyGestureSeesEachFrameBeforeTheHost() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let sockets = TestConfig()
        let (host, _) = config.host()
        let service = try DaemonService(host: host, socketPath: sockets.path + "/control.sock", grabs: false,
                                        notify: SystemdNotify(socketPath: nil))
        defer { service.close() }
        let source = FrameList([Self.fiveDown(0, first: 1), Self.move(1, id: 1, x: 110), Self.move(3, id: 2, x: 210),
                                Self.fiveUp(3.5, first: 1),
                                Self.fiveDown(4, first: 11), Self.move(7, id: 11, x: 110), Self.fiveUp(8, first: 11)])
        #expect(try HostLoop.runLive(source, host: host, watcher: nil, chain: FrameChain(watch: service.emergency, target: host)) == "end of input")
        #expect(host.lines.filter { $0.contains(#""status":"#) && !$0.contains(#""plugin":"#) } == [#"{"t":3,"status":"paused"}"#, #"{"t":7,"status":"resumed"}"#])
        // Paused at 3 s: the plugins' five fingers are cancelled. Resumed before the frame at 7 s
        // goes on: the five fingers down then go down for them, and they see that frame (and
        // the lift after).
        #expect(Self.seen(host, "a") == ["0 down", "0 down", "0 down", "0 down", "0 down", "1 move",
                                         "3 cancel", "3 cancel", "3 cancel", "3 cancel", "3 cancel",
                                         "7 down", "7 down", "7 down", "7 down", "7 down",
                                         "7 move", "8 up", "8 up", "8 up", "8 up", "8 up"])
    }

    /// Evdev bytes of one frame: `events` then SYN_REPORT, at `usec`.
    static func evdev(_ usec: Int, _ events: [(UInt16, UInt16, Int32)]) -> [UInt8] {
        (events + [(0, 0, 0)]).flatMap { InputEventRecord(sec: 10, usec: Int64(usec), type: $0.0, code: $0.1, value: $0.2).rawBytes }
    }

    /// A fifo read as a device by the live wiring (`LiveInput`, with the flight recorder as its
    /// recording) through the daemon's chain: one finger down, two moves, a lift. Returns the
    /// frames the chain's watch saw and the recording's frames, replayed.
    static func recordThroughTheChain(host: PluginHost, pausedFirst: Bool) throws -> (chain: [String], recorded: [String], events: Int) {
        let folder = TestConfig()
        let fifo = folder.path + "/pad"
        #expect(mkfifo(fifo, 0o600) == 0)
        let ready = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            ready.signal()
            let bytes = evdev(0, [(3, 0x2f, 0), (3, 0x39, 7), (3, 0x35, 100), (3, 0x36, 40)]) + evdev(10_000, [(3, 0x35, 120)])
                + evdev(20_000, [(3, 0x36, 60)]) + evdev(30_000, [(3, 0x39, -1)])
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let recorder = FlightRecorder(seconds: 60)
        let input = try LiveInput(selectors: [.path(fifo)], options: EventFileOptions(), grab: false, wakesOnSignals: false,
                                  recording: recorder) { _ in }
        defer { input.close() }
        ready.wait()
        var chain: [Frame] = []
        host.loadAll()
        if pausedFirst { host.pause() }
        #expect(try HostLoop.runLive(input.devices, host: host, watcher: nil,
                                     chain: input.chain(to: host, watch: FrameSpy { chain.append($0) })) == "end of input")
        let path = folder.path + "/last.evemu"
        let written = try recorder.write(lastSeconds: 60, to: path)
        func summary(_ frames: [Frame]) -> [String] {
            frames.map { f in "\(f.t): " + f.events.map { "\($0.id) \($0.phase.rawValue) \($0.x) \($0.y)" }.joined(separator: ", ") }
        }
        return (summary(chain), summary(try openEventFile(path: path).readAll()), written.events)
    }

    /// What the flight recorder keeps replays to the frames the host was given.
    @Test func theRecorderKeepsTheFramesTheHostSaw() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        let (chain, recorded, events) = try Self.recordThroughTheChain(host: host, pausedFirst: false)
        #expect(chain == ["0.0: 7 down 100.0 40.0", "0.01: 7 move 120.0 40.0", "0.02: 7 move 120.0 60.0", "0.03: 7 up 120.0 60.0"])
        #expect(recorded == chain)
        #expect(events == 11)
        #expect(Self.seen(host, "a") == ["0 down", "0.01 move", "0.02 move", "0.03 up"])
    }

    /// A paused host's plugins see nothing; the recorder keeps the input all the same.
    @Test func aPausedHostStillRecords() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        let (chain, recorded, events) = try Self.recordThroughTheChain(host: host, pausedFirst: true)
        #expect(chain == ["0.0: 7 down 100.0 40.0", "0.01: 7 move 120.0 40.0", "0.02: 7 move 120.0 60.0", "0.03: 7 up 120.0 60.0"])
        #expect(recorded == chain)
        #expect(events == 11)
        #expect(Self.seen(host, "a").isEmpty)
    }
}
