import Foundation
import Testing
import MotionActions
import MotionDaemon
import MotionGestures
import MotionPluginHost
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// Live input played from a list of steps, its clock injected: a frame, or a moment at which
/// something happens without input (a file saved, time passing: `nextFrame` then answers
/// `.timeout`, as a wait that ended without a frame). `now` is both the input time and the
/// clock the config watcher's quiet time is measured on.
private final class ScriptedLiveSource: LiveFrameSource {
    enum Step {
        case frame(Frame)
        case at(Double, () -> Void)
    }

    let steps: [Step]
    var index = 0
    var now = 0.0
    var started = false
    /// Where the config watcher registers; run after each action (a file saved) as a live
    /// source's wait would, without waiting.
    let eventLoop: EventLoop? = try! EventLoop()

    init(_ steps: [Step]) { self.steps = steps }

    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        guard index < steps.count else { return .end("end of input") }
        index += 1
        started = true
        switch steps[index - 1] {
        case .frame(let frame):
            now = max(now, frame.t)
            return .frame(frame)
        case .at(let t, let action):
            now = max(now, t)
            action()
            _ = try eventLoop?.wait(seconds: 0)
            return .timeout
        }
    }

    func inputTimeNow() -> Double? { started ? now : nil }
    func stop() { index = steps.count }
}

/// A tap at `t`: down, and up 0.05 s later, at (x, 100).
private func tap(_ t: Double, id: Int, x: Double) -> [ScriptedLiveSource.Step] {
    [.frame(Frame(t: t, events: [PointerEvent(t: t, id: id, phase: .down, x: x, y: 100)])),
     .frame(Frame(t: t + 0.05, events: [PointerEvent(t: t + 0.05, id: id, phase: .up, x: x, y: 100)]))]
}

private func pointer(_ t: Double, id: Int, _ phase: PointerPhase, x: Double) -> ScriptedLiveSource.Step {
    .frame(Frame(t: t, events: [PointerEvent(t: t, id: id, phase: phase, x: x, y: 100)]))
}

/// A plugin emitting `tag` with each pointer's phase and x.
private func echo(_ tag: String) -> String {
    #"motion.pointers():subscribe(function(p) motion.emit("\#(tag)", string.format("%s %d", p.phase, p.x)) end)"#
}

/// The daemon's live loop (`HostLoop.runLive`) with its real config watcher (inotify on the
/// folder) and the watcher's clock injected: the files a save concerns load, reload and unload
/// just their plugins, between frames, once 75 ms passed without another change; meanwhile
/// frames go on reaching every plugin.
@Suite(.timeLimit(.minutes(5))) struct LiveReloadTests {
    /// One session of edits, each followed by a tap: a plugin file added (loaded, alone, acting
    /// on the next tap), edited (that plugin alone reloads), a module edited (only the plugin
    /// requiring it reloads), a broken edit (failed; the previous version keeps acting), a fix
    /// while a finger is down (the new version gets it down where it is), a file removed
    /// (unloaded, the key it held released on the device).
    @Test func savesLoadReloadAndUnloadJustThePluginsTheyConcern() throws {
        let config = TestConfig([
            "a.lua": echo("a1"),
            "b.lua": #"motion.keyDown("leftshift")"# + "\n" + echo("b"),
            "c.lua": #"local m = require "lib.m"; motion.pointers():subscribe(function(p) motion.emit("c", m.word .. " " .. p.phase) end)"#,
            "lib/m.lua": #"return {word = "one"}"#,
        ])
        let sink = RecordingSink()
        let (host, diagnostics) = config.host(actions: ActionHost(performs: true, device: sink, launcher: ProcessLauncher(report: { _ in })))
        var steps = tap(1, id: 1, x: 100)
        steps += [.at(1.1) { config.write("d.lua", echo("d")) }, .at(1.2) {}] + tap(2, id: 2, x: 200)
        steps += [.at(2.1) { config.write("a.lua", echo("a2")) }, .at(2.2) {}] + tap(3, id: 3, x: 300)
        steps += [.at(3.1) { config.write("lib/m.lua", #"return {word = "two"}"#) }, .at(3.2) {}] + tap(4, id: 4, x: 400)
        steps += [.at(4.1) { config.write("a.lua", "motion.pointers(:subscribe(") }, .at(4.2) {}] + tap(5, id: 5, x: 500)
        steps += [pointer(6, id: 6, .down, x: 600), pointer(6.05, id: 6, .move, x: 620),
                  .at(6.1) { config.write("a.lua", echo("a3")) }, .at(6.2) {},
                  pointer(6.3, id: 6, .move, x: 640), pointer(6.35, id: 6, .up, x: 640)]
        steps += [.at(7) { config.remove("b.lua") }, .at(7.1) {}] + tap(8, id: 8, x: 800)
        let source = ScriptedLiveSource(steps)
        let watcher = try ConfigWatcher(folder: host.folder)
        #expect(try HostLoop.runLive(source, host: host, watcher: watcher, clock: { source.now }) == "end of input")

        #expect(host.lines.filter { $0.contains(#""status""#) }.map { $0.replacingOccurrences(of: config.file(""), with: "") } == [
            #"{"t":0,"plugin":"a","status":"loaded","version":1}"#,
            #"{"t":0,"plugin":"b","status":"loaded","version":1}"#,
            #"{"t":0,"plugin":"c","status":"loaded","version":1}"#,
            #"{"t":1.2,"plugin":"d","status":"loaded","version":1}"#,
            #"{"t":2.2,"plugin":"a","status":"reloaded","version":2}"#,
            #"{"t":3.2,"plugin":"c","status":"reloaded","version":2}"#,
            #"{"t":4.2,"plugin":"a","status":"failed","version":2,"error":"a.lua:1: unexpected symbol near ':'"}"#,
            #"{"t":6.2,"plugin":"a","status":"reloaded","version":3}"#,
            #"{"t":7.1,"plugin":"b","status":"unloaded","version":1}"#,
        ])
        let values = { (tag: String) in
            host.lines.filter { $0.contains(#""name":"\#(tag)""#) }.map { line -> String in
                let t = line.split(separator: ",")[0].dropFirst(5)
                return "\(t) \(line.split(separator: "\"").dropLast().last ?? "")"
            }
        }
        #expect(values("a1") == ["1 down 100", "1.05 up 100", "2 down 200", "2.05 up 200"])
        // Version 2 through the broken edit; the finger down at the fix goes on in version 3.
        #expect(values("a2") == ["3 down 300", "3.05 up 300", "4 down 400", "4.05 up 400", "5 down 500", "5.05 up 500",
                                 "6 down 600", "6.05 move 620"])
        #expect(values("a3") == ["6.2 down 620", "6.3 move 640", "6.35 up 640", "8 down 800", "8.05 up 800"])
        #expect(values("b") == ["1 down 100", "1.05 up 100", "2 down 200", "2.05 up 200", "3 down 300", "3.05 up 300",
                                "4 down 400", "4.05 up 400", "5 down 500", "5.05 up 500",
                                "6 down 600", "6.05 move 620", "6.3 move 640", "6.35 up 640"])
        #expect(values("c") == ["1 one down", "1.05 one up", "2 one down", "2.05 one up", "3 one down", "3.05 one up",
                                "4 two down", "4.05 two up", "5 two down", "5.05 two up",
                                "6 two down", "6.05 two move", "6.3 two move", "6.35 two up", "8 two down", "8.05 two up"])
        #expect(values("d") == ["2 down 200", "2.05 up 200", "3 down 300", "3.05 up 300", "4 down 400", "4.05 up 400",
                                "5 down 500", "5.05 up 500", "6 down 600", "6.05 move 620", "6.3 move 640", "6.35 up 640",
                                "8 down 800", "8.05 up 800"])
        // b's shift: pressed at its load, released at its unload (and not before).
        #expect(sink.events.map(\.description) == ["KEY_LEFTSHIFT 1", "SYN", "KEY_LEFTSHIFT 0", "SYN"])
        #expect(host.lines.filter { $0.contains("leftshift") } == [
            #"{"t":0,"plugin":"b","action":"keyDown","key":"leftshift"}"#,
            #"{"t":7.1,"plugin":"b","action":"keyUp","key":"leftshift","auto":true}"#,
        ])
        #expect(diagnostics.lines.contains("a: the new version did not load; version 2 keeps running"))
        #expect(host.status().map(\.name) == ["a", "c", "d"])
    }

    /// A plugin holding a key is reloaded at 3.1 s, then removed at 5.1 s, its last frame at
    /// 1.05 s: each version's release is stamped when it happened, with the lifecycle line that
    /// caused it (before, at the version's last frame: a key released at 5.1 said 1.05). The new
    /// version's hold keeps the key down through the old one's release.
    @Test func heldKeysAreReleasedAtTheReloadOrUnloadTime() throws {
        let config = TestConfig(["a.lua": #"motion.keyDown("leftshift")"#])
        let sink = RecordingSink()
        let (host, _) = config.host(actions: ActionHost(performs: true, device: sink, launcher: ProcessLauncher(report: { _ in })))
        let source = ScriptedLiveSource(tap(1, id: 1, x: 100) + [
            .at(3) { config.write("a.lua", #"motion.keyDown("leftshift") -- v2"#) }, .at(3.1) {},
            .at(5) { config.remove("a.lua") }, .at(5.1) {},
        ])
        let watcher = try ConfigWatcher(folder: host.folder)
        #expect(try HostLoop.runLive(source, host: host, watcher: watcher, clock: { source.now }) == "end of input")
        #expect(host.lines == [
            #"{"t":0,"plugin":"a","status":"loaded","version":1}"#,
            #"{"t":0,"plugin":"a","action":"keyDown","key":"leftshift"}"#,
            #"{"t":3.1,"plugin":"a","action":"keyUp","key":"leftshift","auto":true}"#,
            #"{"t":3.1,"plugin":"a","status":"reloaded","version":2}"#,
            #"{"t":3.1,"plugin":"a","action":"keyDown","key":"leftshift"}"#,
            #"{"t":5.1,"plugin":"a","action":"keyUp","key":"leftshift","auto":true}"#,
            #"{"t":5.1,"plugin":"a","status":"unloaded","version":2}"#,
        ])
        #expect(sink.events.map(\.description) == ["KEY_LEFTSHIFT 1", "SYN", "KEY_LEFTSHIFT 0", "SYN"])
    }

    /// A save starts 75 ms of quiet; the frames that come meanwhile reach every plugin at once,
    /// the saved plugin's running version included, and the reload comes after them (before,
    /// the wait for quiet blocked every device: the reload came first and the frames after it).
    @Test func theWaitForQuietNeverHoldsBackInput() throws {
        let config = TestConfig(["a.lua": echo("a1"), "b.lua": echo("b")])
        let (host, _) = config.host()
        let source = ScriptedLiveSource([
            pointer(1, id: 1, .down, x: 10),
            .at(1.001) { config.write("a.lua", echo("a2")) },
            pointer(1.02, id: 1, .move, x: 20), pointer(1.04, id: 1, .move, x: 30), pointer(1.06, id: 1, .up, x: 30),
            .at(1.07) {},
            pointer(1.08, id: 2, .down, x: 40), pointer(1.1, id: 2, .up, x: 40),
        ])
        let watcher = try ConfigWatcher(folder: host.folder)
        #expect(try HostLoop.runLive(source, host: host, watcher: watcher, clock: { source.now }) == "end of input")
        #expect(Array(host.lines.dropFirst(2)) == [
            #"{"t":1,"plugin":"a","name":"a1","value":"down 10"}"#,
            #"{"t":1,"plugin":"b","name":"b","value":"down 10"}"#,
            #"{"t":1.02,"plugin":"a","name":"a1","value":"move 20"}"#,
            #"{"t":1.02,"plugin":"b","name":"b","value":"move 20"}"#,
            #"{"t":1.04,"plugin":"a","name":"a1","value":"move 30"}"#,
            #"{"t":1.04,"plugin":"b","name":"b","value":"move 30"}"#,
            #"{"t":1.06,"plugin":"a","name":"a1","value":"up 30"}"#,
            #"{"t":1.06,"plugin":"b","name":"b","value":"up 30"}"#,
            // At 1.07, 69 ms of quiet: not yet. At the next frame's step, 79 ms: the reload,
            // after the frame, which the new version then gets as a finger down.
            #"{"t":1.08,"plugin":"a","name":"a1","value":"down 40"}"#,
            #"{"t":1.08,"plugin":"b","name":"b","value":"down 40"}"#,
            #"{"t":1.08,"plugin":"a","status":"reloaded","version":2}"#,
            #"{"t":1.08,"plugin":"a","name":"a2","value":"down 40"}"#,
            #"{"t":1.1,"plugin":"a","name":"a2","value":"up 40"}"#,
            #"{"t":1.1,"plugin":"b","name":"b","value":"up 40"}"#,
        ])
    }

    /// Live output that cannot be written (a descriptor open for reading) stops the host, and
    /// the loop ends at the next step with the reason. The loop is given the question when the
    /// host stops (`PluginHost.onStop`), not asking after every step.
    @Test func liveOutputThatCannotBeWrittenEndsTheLoop() throws {
        let config = TestConfig(["a.lua": echo("a")])
        let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(readOnly) }
        let router = OutputRouter(.sink(LineSink(fileDescriptor: readOnly)))
        router.diagnostics = { _ in }
        let host = PluginHost(folder: try ConfigFolder(config.path), options: RunOptions(scriptPath: ""), router: router,
                              defaults: PluginLimits(timeout: 0.2, memoryMiB: 16))
        var stops = 0
        host.onStop = { stops += 1 }
        host.loadAll()
        #expect(stops == 1)
        let source = ScriptedLiveSource(tap(1, id: 1, x: 10) + tap(2, id: 2, x: 20))
        #expect(try HostLoop.runLive(source, host: host, watcher: nil) == "the output cannot be written (Bad file descriptor); stopped")
        // One step, whose frame reached no plugin; the rest was never read.
        #expect(source.index == 1)
        #expect(host.time == 1)
        #expect(host.status().map(\.state) == [.running])
    }
}

/// Devices coming and going under a daemon with two plugins, on FIFOs standing in for device
/// nodes (`LiveDeviceSet` with `waitsForDevices`, as `daemon` opens it), through the daemon's
/// live loop with its config watcher in the same wait: both plugins see a device's finger
/// cancelled when it goes away, the other device's frames meanwhile, and the device's frames
/// again when its node is back. The writer moves on only when the set said what it noticed
/// (semaphores), so nothing depends on sleeps.
@Suite(.timeLimit(.minutes(5))) struct DaemonHotplugTests {
    private static func frame(usec: Int, id: Int32, x: Int32?) -> [UInt8] {
        var events: [(UInt16, UInt16, Int32)] = [(3, 0x2f, 0)]
        if let x { events += [(3, 0x39, id), (3, 0x35, x), (3, 0x36, 0)] } else { events += [(3, 0x39, -1)] }
        return events.flatMap { event(usec: usec, $0.0, $0.1, $0.2) } + event(usec: usec, 0, 0, 0)
    }

    /// One 24-byte `struct input_event` at 10 s + usec.
    private static func event(usec: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var bytes = [UInt8]()
        withUnsafeBytes(of: Int64(10).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: Int64(usec).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    private final class Said: @unchecked Sendable {
        var lines: [String] = []
        let gone = DispatchSemaphore(value: 0)
        let back = DispatchSemaphore(value: 0)
        /// The writer's ends, closed once the session is over (a close would end the device).
        var writers: [Int32] = []
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aDeviceGoneAndBackReachesBothPluginsAndTheOtherDeviceGoesOn() throws {
        let config = TestConfig([
            "a.lua": #"motion.pointers():subscribe(function(p) motion.emit("a", p.device.name:match("[^/]+$") .. " " .. p.phase) end)"#,
            "b.lua": #"motion.pointers():subscribe(function(p) motion.emit("b", p.device.name:match("[^/]+$") .. " " .. p.phase) end)"#,
        ])
        let devices = TestConfig()
        let one = devices.path + "/one", two = devices.path + "/two"
        #expect(mkfifo(one, 0o600) == 0 && mkfifo(two, 0o600) == 0)
        let said = Said()
        let set = try LiveDeviceSet(selectors: [.path(one), .path(two)], waitsForDevices: true) { line in
            said.lines.append(line)
            if line.hasSuffix("waiting for it to come back") { said.gone.signal() }
            if line.hasSuffix("reading it again") { said.back.signal() }
        }
        defer { set.close() }
        let (host, _) = config.host()
        // The last lift on the device that came back ends the session.
        let stopAtLift = FrameSpy { frame in
            if frame.events.contains(where: { $0.phase == .up && $0.device?.name == one }) { set.stop() }
        }
        let writer = Thread {
            func put(_ path: String, _ bytes: [UInt8]) -> Int32 {
                let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)  // the set reads it already
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                return fd
            }
            // A finger on one, then one goes away (its writer closes, its node is removed).
            close(put(one, Self.frame(usec: 0, id: 1, x: 10)))
            unlink(one)
            said.gone.wait()
            // two goes on meanwhile.
            said.writers.append(put(two, Self.frame(usec: 100_000, id: 2, x: 20) + Self.frame(usec: 200_000, id: 2, x: nil)))
            mkfifo(one, 0o600)
            said.back.wait()
            said.writers.append(put(one, Self.frame(usec: 300_000, id: 3, x: 30) + Self.frame(usec: 400_000, id: 3, x: nil)))
            said.done.signal()
        }
        writer.start()
        let watcher = try ConfigWatcher(folder: host.folder)
        #expect(try HostLoop.runLive(set, host: host, watcher: watcher, chain: FrameChain(watch: stopAtLift, target: host)) == "stopped")
        said.done.wait()
        for fd in said.writers { close(fd) }
        let expected = ["one down", "one cancel", "two down", "two up", "one down", "one up"]
        #expect(host.lines(of: "a").dropFirst().map { String($0.split(separator: "\"").dropLast().last ?? "") } == expected)
        #expect(host.lines(of: "b").dropFirst().map { String($0.split(separator: "\"").dropLast().last ?? "") } == expected)
        #expect(said.lines == ["motionscript: \(one): end of input; waiting for it to come back",
                               "motionscript: \(one) is back; reading it again"])
        #expect(host.status().map(\.state) == [.running, .running])
    }
}
