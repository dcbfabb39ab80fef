// The drag pipeline over N synthetic move events, composed in Lua through motionscript and
// written directly against the Swift API, in one process so the two share the machine's
// mood; or any script fed the same drag (the per-event Lua rows). scripts/bench adds the
// plain-Lua and LuaJIT peers and prints ratios. Times are CPU seconds of the process, the
// measure `os.clock()` gives the Lua peers.
#if canImport(Glibc)
import Glibc
#endif
import MotionGestures
import MotionPluginHost
import MotionInput
import MotionLua
import MotionProxy
import MotionStreams

let arguments = CommandLine.arguments
let n = arguments.count > 1 ? Int(arguments[1]) ?? 5_000_000 : 5_000_000
let luaScript = arguments.count > 2 ? arguments[2] : "scripts/bench-lua/drag.lua"
/// "swift" or "lua" runs one pipeline only (for instruction counts); anything else runs both.
let only = arguments.count > 3 ? arguments[3] : "both"

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Feeds a one-finger drag of n moves, reusing one frame: no allocation per event here.
func drive(_ handle: (Frame) throws -> Void) rethrows {
    var frame = Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)])
    try handle(frame)
    frame.events[0].phase = .move
    for i in 1...n {
        let t = Double(i) * 0.008
        frame.t = t
        frame.events[0].t = t
        frame.events[0].x = Double(i)
        frame.events[0].y = Double(i) * 0.5
        try handle(frame)
    }
    frame.events[0].phase = .up
    frame.t += 0.008
    try handle(frame)
}

final class NullOutput: MotionOutput {
    func emit(t: Double, name: String, value: MotionValue) {}
    func emit(t: Double, name: String, state: MotionState) {}
    func log(_ line: String) {}
}

func runSwift() throws -> (seconds: Double, box: Point) {
    let dispatcher = PointerDispatcher()
    let box = ReactiveProperty(Point(x: 100, y: 200))
    let pan = try TranslationGestureRecognizer()
    dispatcher.add(pan)
    let subscription = gestureSource(pan).translation(addedTo: box).subscribe(box)
    let start = now()
    drive { dispatcher.dispatch($0) }
    let seconds = now() - start
    subscription.unsubscribe()
    return (seconds, box.read())
}

func runLua() throws -> (seconds: Double, box: Point) {
    let runtime = try LuaRuntime(scriptPath: luaScript, output: NullOutput())
    defer { runtime.close() }
    try runtime.load()
    let start = now()
    try drive { try runtime.handle($0) }
    let seconds = now() - start
    return (seconds, runtime.global("box")?.point ?? .zero)
}

/// Feeds a two-finger pinch-zoom-rotate of n frames (both fingers move in every frame: the pair
/// drifts, turns and spreads), reusing one frame.
func drivePinch(_ n: Int, _ handle: (Frame) throws -> Void) rethrows {
    func place(_ frame: inout Frame, _ i: Int) {
        let k = Double(i)
        frame.events[0].x = 100 + k
        frame.events[0].y = 200 + k * 0.5
        frame.events[1].x = frame.events[0].x + 100 + k * 0.01
        frame.events[1].y = frame.events[0].y + k * 0.02
    }
    var frame = Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0),
                                     PointerEvent(t: 0, id: 2, phase: .down, x: 0, y: 0)])
    place(&frame, 0)
    try handle(frame)
    frame.events[0].phase = .move
    frame.events[1].phase = .move
    for i in 1...n {
        let t = Double(i) * 0.008
        frame.t = t
        frame.events[0].t = t
        frame.events[1].t = t
        place(&frame, i)
        try handle(frame)
    }
    frame.events[0].phase = .up
    frame.events[1].phase = .up
    frame.t += 0.008
    frame.events[0].t = frame.t
    frame.events[1].t = frame.t
    try handle(frame)
}

/// What a pinch run leaves: the position, angle and size the three gestures were added to.
struct PinchResult {
    var seconds: Double
    var position: Point
    var angle: Double
    var size: Double
}

/// DirectlyManipulable against the Swift API: pan, rotation and scale of the same two fingers,
/// each added to its own property.
func runPinchSwift(_ n: Int) throws -> PinchResult {
    let dispatcher = PointerDispatcher()
    let position = ReactiveProperty(Point(x: 200, y: 200))
    let angle = ReactiveProperty(0.0)
    let size = ReactiveProperty(1.0)
    let pan = try TranslationGestureRecognizer()
    let rotate = try RotationGestureRecognizer()
    let pinch = try ScaleGestureRecognizer()
    for recognizer in [pan, rotate, pinch] as [GestureRecognizer] { dispatcher.add(recognizer) }
    let subscriptions = [
        gestureSource(pan).translation(addedTo: position).subscribe(position),
        gestureSource(rotate).rotation(addedTo: angle).subscribe(angle),
        gestureSource(pinch).scale(addedTo: size).subscribe(size),
    ]
    let start = now()
    drivePinch(n) { dispatcher.dispatch($0) }
    let seconds = now() - start
    for subscription in subscriptions { subscription.unsubscribe() }
    return PinchResult(seconds: seconds, position: position.read(), angle: angle.read(), size: size.read())
}

/// The same composed in Lua (scripts/bench-lua/pinch.lua: globals position, angle, size).
func runPinchLua(_ n: Int, _ script: String) throws -> PinchResult {
    let runtime = try LuaRuntime(scriptPath: script, output: NullOutput())
    defer { runtime.close() }
    try runtime.load()
    let start = now()
    try drivePinch(n) { try runtime.handle($0) }
    let seconds = now() - start
    return PinchResult(seconds: seconds, position: runtime.global("position")?.point ?? .zero,
                       angle: runtime.global("angle")?.number ?? 0, size: runtime.global("size")?.number ?? 0)
}

/// `motionbench pinch [N] [SCRIPT] [swift|lua|both]`: the pinch-zoom-rotate rows, as the drag's.
if arguments.count > 1, arguments[1] == "pinch" {
    let frames = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
    let script = arguments.count > 3 ? arguments[3] : "scripts/bench-lua/pinch.lua"
    let which = arguments.count > 4 ? arguments[4] : "both"
    do {
        var results: [(String, PinchResult)] = []
        if which != "lua" { results.append(("swift", try runPinchSwift(frames))) }
        if which != "swift" { results.append(("lua", try runPinchLua(frames, script))) }
        for (name, r) in results {
            print("\(name) \(r.seconds) \(r.position.x) \(r.position.y) \(r.angle) \(r.size)")
        }
    } catch {
        fputs("motionbench: \(error)\n", stderr)
        exit(1)
    }
    exit(0)
}

/// `motionbench decode FILE`: reads an event file to the end (decoder cost alone).
if arguments.count > 2, arguments[1] == "decode" {
    do {
        let source = try Replay.openEvents(path: arguments[2])
        var frames = 0, events = 0
        let start = now()
        while let frame = try source.nextFrame() {
            frames += 1
            events += frame.events.count
        }
        print("decode \(now() - start) \(frames) \(events)")
    } catch {
        fputs("motionbench: \(error)\n", stderr)
        exit(2)
    }
    exit(0)
}

/// `motionbench arbiter N [arbiter|copy]`: the proxy's decision per frame (docs/desktop.md,
/// "The proxy"): N frames of a two-finger scroll (7 events each: a slot, an x, a y per finger
/// and the report) through one `TouchArbiter` to a clone that keeps nothing, the consumers'
/// claim `.none` (every frame passes); `copy`: only the frames built, as the baseline.
/// Frames are built in place (nothing allocated per frame here).
final class NullClone: CloneSink {
    var frames = 0
    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) { frames &+= frame.count }
}

if arguments.count > 2, arguments[1] == "arbiter" {
    let frames = Int(arguments[2]) ?? 1
    let mode = arguments.count > 3 ? arguments[3] : "arbiter"
    var d = DeviceDescription()
    d.name = "bench pad"
    d.absinfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: 4)
    let sink = NullClone()
    let arbiter = TouchArbiter(identity: CloneIdentity(d), sink: sink)
    var events = [InputEventRecord](repeating: InputEventRecord(sec: 0, usec: 0, type: 0, code: 0, value: 0), count: 16)
    func put(_ k: Int, _ type: UInt16, _ code: UInt16, _ value: Int32) { events[k] = InputEventRecord(sec: 0, usec: 0, type: type, code: code, value: value) }
    let start = now()
    var taken = 0
    for i in 0..<frames {
        let t = Double(i) * 0.007
        var k = 0
        let y = Int32(100 + i % 400)
        if i == 0 {
            for (s, id) in [(Int32(0), Int32(1)), (1, 2)] {
                put(k, EV.ABS, ABS.MT_SLOT, s); put(k + 1, EV.ABS, ABS.MT_TRACKING_ID, id)
                put(k + 2, EV.ABS, ABS.MT_POSITION_X, 100 + s * 100); put(k + 3, EV.ABS, ABS.MT_POSITION_Y, y)
                k += 4
            }
            put(k, EV.KEY, BTN.TOUCH, 1); k += 1
        } else {
            for s in Int32(0)...1 {
                put(k, EV.ABS, ABS.MT_SLOT, s); put(k + 1, EV.ABS, ABS.MT_POSITION_X, 100 + s * 100); put(k + 2, EV.ABS, ABS.MT_POSITION_Y, y)
                k += 3
            }
        }
        put(k, EV.SYN, SYN.REPORT, 0); k += 1
        switch mode {
        case "copy":
            taken &+= k
        default:
            for j in 0..<k where arbiter.take(events[j]) { arbiter.decide(.none, at: t) }
        }
    }
    print("arbiter \(now() - start) \(frames) \(mode) \(sink.frames + taken)")
    exit(0)
}

/// `motionbench output N [long]`: N typical output lines (a point value line, then a gesture
/// stream's state line, in turn) through the real JSONLinesOutput into /dev/null: the cost of
/// writing output alone. Coordinates are short decimals, as input devices give them; `long`
/// makes them full-precision doubles (computed velocities, sums such as 0.1 + 0.2).
if arguments.count > 2, arguments[1] == "output" {
    let lines = Int(arguments[2]) ?? 1
    let long = arguments.count > 3 && arguments[3] == "long"
    let null = open("/dev/null", O_WRONLY)
    let output = JSONLinesOutput(fileDescriptor: null)
    let position = "position", pan = "pan"
    let start = now()
    for i in 0..<lines {
        let t = Double(i / 2) * 0.004
        if i % 2 == 0 {
            let d = Double(i / 2)
            let p = long ? Point(x: 100 + d / 3, y: 200 - d * 0.1) : Point(x: 100 + d * 0.25, y: 200 + d * 0.125)
            output.emit(t: t, name: position, value: .point(p))
        } else {
            output.emit(t: t, name: pan, state: i % 4 == 1 ? .active : .atRest)
        }
    }
    output.flush()
    print("output \(now() - start) \(lines) \(output.failure == nil ? "ok" : "failed")")
    exit(output.failure == nil ? 0 : 1)
}

do {
    if only != "lua" {
        let swift = try runSwift()
        print("swift \(swift.seconds) \(swift.box.x) \(swift.box.y)")
    }
    if only != "swift" {
        let lua = try runLua()
        print("lua \(lua.seconds) \(lua.box.x) \(lua.box.y)")
    }
} catch {
    fputs("motionbench: \(error)\n", stderr)
    exit(1)
}
