import MotionGestures
import MotionPluginHost
import Testing

/// `ctl pause` (SIGUSR1, the emergency gesture) in the middle of a touch: the plugins' fingers
/// are cancelled at the pause, and those still down at `resume` go down for them where they are
/// then — as a new version gets them at a reload. Without it a finger lifted while paused
/// stayed down for every plugin after the resume, and a one-finger gesture became a two-finger one.
@Suite struct PauseFingersTests {
    /// Each pointer event a plugin sees: "phase id x".
    static let spy = #"motion.pointers():subscribe(function(p) motion.emit("p", p.phase .. " " .. p.id .. " " .. string.format("%g", p.x)) end)"#
    static let oneFingerTaps = #"motion.tap{fingers = 1}:on("recognized", function() motion.emit("tap", true) end)"#

    func seen(_ host: PluginHost, _ plugin: String) -> [String] {
        host.lines(of: plugin).compactMap { line -> String? in
            guard let r = line.range(of: #""value":""#) else { return nil }
            return String(line[r.upperBound...].dropLast(2))
        }
    }

    @Test func aFingerDownAtThePauseIsCancelledAndOneDownAtTheResumeGoesDownThere() {
        let config = TestConfig(["a.lua": Self.spy])
        let (host, _) = config.host()
        host.loadAll()
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .down, x: 10, y: 0)]))
        host.pause()
        // While paused: finger 1 lifts, finger 2 goes down and moves.
        host.handle(Frame(t: 2, events: [PointerEvent(t: 2, id: 1, phase: .up, x: 11, y: 0)]))
        host.handle(Frame(t: 3, events: [PointerEvent(t: 3, id: 2, phase: .down, x: 20, y: 0)]))
        host.handle(Frame(t: 4, events: [PointerEvent(t: 4, id: 2, phase: .move, x: 25, y: 0)]))
        host.resume()
        host.handle(Frame(t: 5, events: [PointerEvent(t: 5, id: 2, phase: .up, x: 26, y: 0)]))
        #expect(seen(host, "a") == ["down 1 10", "cancel 1 10", "down 2 25", "up 2 26"])
    }

    @Test func aOneFingerTapAfterAPauseMidTouchIsATap() {
        let config = TestConfig(["t.lua": Self.oneFingerTaps])
        let (host, _) = config.host()
        host.loadAll()
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .down, x: 10, y: 0)]))
        host.pause()
        host.handle(Frame(t: 1.5, events: [PointerEvent(t: 1.5, id: 1, phase: .up, x: 10, y: 0)]))
        host.resume()
        host.run([Frame(t: 3, events: [PointerEvent(t: 3, id: 2, phase: .down, x: 50, y: 50)]),
                  Frame(t: 3.05, events: [PointerEvent(t: 3.05, id: 2, phase: .up, x: 50, y: 50)])])
        #expect(host.lines(of: "t").filter { $0.contains(#""name":"tap""#) }.count == 1)
    }

    /// The fingers handed over keep their device, at a reload as at a resume: a plugin that
    /// asks `p.device.kind` (or a recognizer with `devices = "touchpad"`) still sees where they
    /// are. Before, a reload's new version got them with no device at all.
    @Test func handedOverFingersKeepTheirDeviceAtAReloadAndAResume() {
        let kinds = #"motion.pointers():subscribe(function(p) motion.emit("p", p.phase .. " " .. (p.device and p.device.kind or "none")) end)"#
        let config = TestConfig(["a.lua": kinds])
        let (host, _) = config.host()
        host.loadAll()
        let pad = PointerDevice(name: "pad", kind: "touchpad")
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 1, phase: .down, x: 10, y: 0, device: pad)]))
        config.write("a.lua", kinds + "\n-- edited")
        host.filesChanged([config.file("a.lua")])
        host.pause()
        host.resume()
        #expect(seen(host, "a") == ["down touchpad", "down touchpad", "cancel touchpad", "down touchpad"])
    }
}
