import MotionGestures
import MotionInput
import MotionLua
import MotionStreams

/// Everything a picture of a run shows: the input's pointer changes, the lines the script
/// emitted, and every state each recognizer went through, all on input time.
public struct RunTrace {
    /// One emitted line: a value or a state under a name.
    public struct Line {
        public var t: Double
        public var name: String
        public var value: MotionValue?
        public var state: MotionState?
    }

    /// One state a recognizer reported.
    public struct RecognizerState {
        public var t: Double
        public var state: GestureState
    }

    /// A recognizer the script made, in creation order, with the states it went through.
    public struct Recognizer {
        public var label: String
        public var states: [RecognizerState]
    }

    public var scriptPath: String
    public var eventsPath: String
    public var pointers: [PointerEvent] = []
    public var lines: [Line] = []
    public var recognizers: [Recognizer] = []
    /// Input time of the last thing recorded.
    public var endTime: Double = 0

    /// Runs the script over the events as `run` does and records what happened. Output lines
    /// also go to `forward`, if given. Throws what `run` throws (script and input errors).
    public static func record(_ options: RunOptions, forward: MotionOutput? = nil) throws -> RunTrace {
        guard let eventsPath = options.eventsPath else {
            throw InputError(file: options.scriptPath, "a plot needs --events")
        }
        let source = RecordingFrameSource(try Runner.openEvents(path: eventsPath, options: options.input))
        let recorder = TraceOutput(forward: forward)
        let runtime = try LuaRuntime(scriptPath: options.scriptPath, output: recorder, memoryLimit: options.memoryLimit)
        defer { runtime.close() }
        runtime.setTimeout(options.timeout)
        let watcher = RecognizerWatcher(runtime)
        try Runner.readScriptIfStream(runtime)
        try runtime.load(arguments: options.scriptArguments)
        watcher.attachNew()
        source.afterFrame = { watcher.attachNew() }
        try Runner.feed(source, to: runtime, timeout: options.timeout)
        var trace = RunTrace(scriptPath: options.scriptPath, eventsPath: eventsPath)
        trace.pointers = source.events
        trace.lines = recorder.lines
        trace.recognizers = watcher.recognizers
        trace.endTime = max(source.events.last?.t ?? 0, recorder.lines.map(\.t).max() ?? 0,
                            watcher.recognizers.flatMap { $0.states.map(\.t) }.max() ?? 0)
        return trace
    }
}

/// Passes frames through, keeping every pointer change.
private final class RecordingFrameSource: FrameSource {
    private let upstream: FrameSource
    private(set) var events: [PointerEvent] = []
    var afterFrame: (() -> Void)?
    private var pendingCallback = false

    init(_ upstream: FrameSource) { self.upstream = upstream }

    var framePlace: String? { upstream.framePlace }

    func nextFrame() throws -> Frame? {
        // The frame handed out last has been handled by now: recognizers it made get watched.
        if pendingCallback { afterFrame?() }
        guard let frame = try upstream.nextFrame() else { return nil }
        events.append(contentsOf: frame.events)
        pendingCallback = true
        return frame
    }
}

/// Records output lines (and forwards them).
private final class TraceOutput: MotionOutput {
    private let forward: MotionOutput?
    private(set) var lines: [RunTrace.Line] = []

    init(forward: MotionOutput?) { self.forward = forward }

    func emit(t: Double, name: String, value: MotionValue) {
        lines.append(.init(t: t, name: name, value: value))
        forward?.emit(t: t, name: name, value: value)
    }

    func emit(t: Double, name: String, state: MotionState) {
        lines.append(.init(t: t, name: name, state: state))
        forward?.emit(t: t, name: name, state: state)
    }

    func log(_ line: String) { forward?.log(line) }
}

/// Listens to every recognizer of a runtime, including ones made after setup.
private final class RecognizerWatcher {
    private let runtime: LuaRuntime
    private(set) var recognizers: [RunTrace.Recognizer] = []

    init(_ runtime: LuaRuntime) { self.runtime = runtime }

    func attachNew() {
        let all = runtime.dispatcher.recognizers
        guard all.count > recognizers.count else { return }
        var counts: [GestureKind: Int] = [:]
        for recognizer in all.prefix(recognizers.count) { counts[recognizer.value.kind, default: 0] += 1 }
        for index in recognizers.count..<all.count {
            let recognizer = all[index]
            let kind = recognizer.value.kind
            counts[kind, default: 0] += 1
            recognizers.append(.init(label: "\(kind.rawValue) \(counts[kind]!)", states: []))
            recognizer.addListener { [unowned self, unowned runtime] value in
                recognizers[index].states.append(.init(t: runtime.time, state: value.state))
            }
        }
    }
}
