import MotionGestures
import MotionPluginHost
import MotionRun
import MotionInput
import MotionJSON
import MotionLua
import MotionStreams

extension RunTrace {
    /// Runs the script over the events as `run` does and records what happened in `window`.
    /// Output lines also go to `forward`, if given, exactly as `run` writes them. Throws what
    /// `run` throws (script and input errors).
    public static func record(_ options: RunOptions, window: ClosedRange<Double> = -Double.infinity...Double.infinity,
                              forward: MotionOutput? = nil) throws -> RunTrace {
        guard let eventsPath = options.eventsPath else {
            throw InputError(file: options.scriptPath, "a plot needs --events")
        }
        let recorder = TraceRecorder(window: window, forward: forward)
        let events = try Replay.openEvents(path: eventsPath, options: options.input)
        let source = RecordingFrameSource(events, recorder)
        // The script runs as `run` runs it — the plugin host's one plugin (sandbox, actions,
        // motion.screen) — with its lines recorded.
        let host = PluginHost.forScript(options, output: recorder, limitsEachCall: false)
        defer { host.close() }
        host.screenSource = events
        host.willLoadScript = { $0.recordsCreationSites = true }
        // The time limit covers the setup and every frame.
        let start = Clock.monotonic()
        try host.loadScript()
        guard let runtime = host.scriptRuntime else { preconditionFailure("a script that loaded has a state") }
        if options.timeout > 0 { runtime.setDeadline(start + options.timeout) }
        let watcher = RecognizerWatcher(runtime, recorder)
        watcher.attachNew()
        source.afterFrame = { watcher.attachNew() }
        try Replay.feedScript(source, to: OneScript(host), timeout: options.timeout,
                                deadline: options.timeout > 0 ? Clock.monotonic() + options.timeout : .infinity)
        var trace = recorder.trace(scriptPath: options.scriptPath, eventsPath: eventsPath)
        var names = RecognizerNames()
        trace.recognizers = watcher.recognizers.prefix(maxRecognizers).map { watched in
            let label = names.name(for: runtime.creationSites[watched.identity] ?? []) ?? watched.fallbackLabel
            return Recognizer(label: label, kind: watched.kind, finals: watched.finals.kept,
                              activeBands: watched.closedBands(at: recorder.closingTime))
        }
        trace.recognizersNotDrawn = max(0, watcher.recognizers.count - maxRecognizers)
        return trace
    }
}

/// Collects a trace as the run goes, thinned, keeping only what falls in the window.
private final class TraceRecorder: MotionOutput {
    let window: ClosedRange<Double>
    private let forward: MotionOutput?

    private var pointerChanges = 0
    private var firstIDs: [Int] = []
    private var seenIDs = Set<Int>()
    private var strokes = ThinnedSamples<RunTrace.Stroke>(capacity: RunTrace.strokesKept)
    private var openStrokes: [Int: ThinnedSamples<Point>] = [:]
    private var openStarts: [Int: Bool] = [:]
    private var bars = Array(repeating: ThinnedBands(capacity: RunTrace.bands), count: RunTrace.pointerRows)
    private var openBars: [Int: Double] = [:]

    private var seriesIndex: [String: Int] = [:]
    private var series: [(name: String, values: ThinnedSamples<RunTrace.Line>, bands: ThinnedBands)] = []
    private var linesNotDrawn = 0
    private var actions = ThinnedSamples<RunTrace.Action>(capacity: RunTrace.markers)
    private var lineCount = 0
    private var startTime: Double?
    private var endTime = 0.0
    /// The latest input time seen, in the window or not.
    private var latest = -Double.infinity

    init(window: ClosedRange<Double>, forward: MotionOutput?) {
        self.window = window
        self.forward = forward
    }

    private func saw(_ t: Double) -> Bool {
        latest = max(latest, t)
        guard window.contains(t) else { return false }
        if startTime == nil { startTime = t }
        endTime = max(endTime, t)
        return true
    }

    // MARK: pointers

    func pointers(_ events: [PointerEvent]) {
        for event in events where saw(event.t) {
            pointerChanges += 1
            if seenIDs.count < 4096, seenIDs.insert(event.id).inserted, firstIDs.count < RunTrace.legendPointers {
                firstIDs.append(event.id)
            }
            if event.phase == .down || openStrokes[event.id] == nil {
                finishStroke(event.id, endsUp: false)
                openStrokes[event.id] = ThinnedSamples(capacity: RunTrace.pointsPerStroke)
                openStarts[event.id] = event.phase == .down
                openBars[event.id] = event.t
            }
            openStrokes[event.id]!.append(event.point)
            if event.phase == .up || event.phase == .cancel {
                // The lift is always drawn where it was, whatever thinning kept before it.
                openStrokes[event.id]!.last = event.point
                finishStroke(event.id, endsUp: true)
                closeBar(event.id, at: event.t)
            }
        }
    }

    private func finishStroke(_ id: Int, endsUp: Bool) {
        guard let points = openStrokes.removeValue(forKey: id) else { return }
        strokes.append(RunTrace.Stroke(id: id, points: points.kept, startsDown: openStarts[id] ?? false, endsUp: endsUp))
        openStarts[id] = nil
    }

    private func closeBar(_ id: Int, at t: Double) {
        guard let start = openBars.removeValue(forKey: id) else { return }
        let row = RunPlot.row(of: id)
        bars[row].open(at: start)
        bars[row].close(at: t)
    }

    // MARK: output

    private func series(_ name: String) -> Int? {
        if let index = seriesIndex[name] { return index }
        guard series.count < RunTrace.maxSeries else { return nil }
        seriesIndex[name] = series.count
        series.append((name, ThinnedSamples(capacity: RunTrace.samplesPerSeries), ThinnedBands(capacity: RunTrace.bands)))
        return series.count - 1
    }

    func emit(t: Double, name: String, value: MotionValue) {
        forward?.emit(t: t, name: name, value: value)
        guard saw(t) else { return }
        lineCount += 1
        guard let index = series(name) else { linesNotDrawn += 1; return }
        series[index].values.append(RunTrace.Line(t: t, sample: Self.sample(value)))
    }

    func emit(t: Double, name: String, state: MotionState) {
        forward?.emit(t: t, name: name, state: state)
        guard saw(t) else { return }
        lineCount += 1
        guard let index = series(name) else { linesNotDrawn += 1; return }
        if state == .active { series[index].bands.open(at: t) } else { series[index].bands.close(at: t) }
    }

    // Forwarded as what they are: `run --plot` prints the same action lines as `run`
    // (`{"t":…,"action":…}`), never a value named "action".
    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        forward?.emit(t: t, action: action, fields: fields)
        guard saw(t) else { return }
        lineCount += 1
        actions.append(RunTrace.Action(t: t, label: Self.label(action, fields),
                                       json: RunTrace.cut(JSONText.value(.object([("action", .string(action))] + fields)))))
    }

    /// Focus changes are not plotted; the forwarded output still has them.
    func emit(t: Double, app: MotionValue) { forward?.emit(t: t, app: app) }

    func log(_ line: String) { forward?.log(line) }

    static func sample(_ value: MotionValue) -> RunTrace.Sample {
        if let number = value.number { return .number(number) }
        if let point = value.point { return .point(point) }
        if case .pointerEvent(let event) = value { return .point(event.point) }
        if case .gesture(let g) = value { return .text(g.state.rawValue) }
        if case .string(let text) = value { return .text(RunTrace.cut(text)) }
        return .text(RunTrace.cut(JSONText.value(value)))
    }

    /// What an action lane says: `keys ctrl+alt+Right`, `exec rofi -show window`, `mouse right click`.
    static func label(_ action: String, _ fields: [(key: String, value: MotionValue)]) -> String {
        let words = fields.map { field -> String in
            switch field.value {
            case .string(let text): return text
            case .array(let items): return items.map { if case .string(let s) = $0 { return s } else { return JSONText.value($0) } }
                .joined(separator: " ")
            case .point(let p): return "\(field.key) \(plotNumber(p.x)),\(plotNumber(p.y))"
            default: return "\(field.key) \(JSONText.value(field.value))"
            }
        }
        return RunTrace.cut(([action] + words).joined(separator: " "))
    }

    /// Where what is still open at the end is drawn to: the window's end, or the input's.
    var closingTime: Double { max(endTime, min(window.upperBound, latest)) }

    func trace(scriptPath: String, eventsPath: String) -> RunTrace {
        for id in Array(openStrokes.keys).sorted() { finishStroke(id, endsUp: false) }
        for (id, start) in openBars { bars[RunPlot.row(of: id)].open(at: start); bars[RunPlot.row(of: id)].close(at: closingTime) }
        var trace = RunTrace(scriptPath: scriptPath, eventsPath: eventsPath, window: window)
        trace.pointerChanges = pointerChanges
        trace.firstPointerIDs = firstIDs
        trace.pointerIDCount = seenIDs.count
        trace.strokes = strokes.kept
        trace.strokeCount = strokes.count
        trace.pointerBars = bars.map(\.bands)
        trace.series = series.map { entry in
            var bands = entry.bands
            bands.close(at: closingTime)
            return RunTrace.Series(name: entry.name, values: entry.values.kept, count: entry.values.count,
                                   activeBands: bands.bands)
        }
        trace.linesNotDrawn = linesNotDrawn
        trace.actions = actions.kept
        trace.actionCount = actions.count
        trace.lineCount = lineCount
        trace.startTime = startTime ?? 0
        trace.endTime = endTime
        return trace
    }

    /// A recognizer's state at `t`: counts as input time seen.
    func extend(to t: Double) { _ = saw(t) }
}

/// Passes frames through, handing their pointer changes to the recorder.
private final class RecordingFrameSource: FrameSource {
    private let upstream: FrameSource
    private let recorder: TraceRecorder
    var afterFrame: (() -> Void)?
    private var pendingCallback = false

    init(_ upstream: FrameSource, _ recorder: TraceRecorder) {
        self.upstream = upstream
        self.recorder = recorder
    }

    var framePlace: String? { upstream.framePlace }

    func nextFrame() throws -> Frame? {
        // The frame handed out last has been handled by now: recognizers it made get watched.
        if pendingCallback { afterFrame?() }
        guard let frame = try upstream.nextFrame() else { return nil }
        recorder.pointers(frame.events)
        pendingCallback = true
        return frame
    }
}

/// Listens to every recognizer of a runtime, including ones made after setup.
private final class RecognizerWatcher {
    final class Watched {
        let identity: ObjectIdentifier
        let kind: GestureKind
        let fallbackLabel: String
        var finals = ThinnedSamples<RunTrace.RecognizerState>(capacity: RunTrace.markers)
        var bands = ThinnedBands(capacity: RunTrace.bands)

        init(_ recognizer: GestureRecognizer, label: String) {
            identity = ObjectIdentifier(recognizer)
            kind = recognizer.kind
            fallbackLabel = label
        }

        func closedBands(at t: Double) -> [ClosedRange<Double>] {
            var copy = bands
            copy.close(at: t)
            return copy.bands
        }
    }

    private let runtime: LuaRuntime
    private let recorder: TraceRecorder
    private var attached = 0
    private var counts: [GestureKind: Int] = [:]
    private(set) var recognizers: [Watched] = []

    init(_ runtime: LuaRuntime, _ recorder: TraceRecorder) {
        self.runtime = runtime
        self.recorder = recorder
    }

    func attachNew() {
        let all = runtime.dispatcher.recognizers
        guard all.count > attached else { return }
        for recognizer in all[attached...] {
            let kind = recognizer.kind
            counts[kind, default: 0] += 1
            let watched = Watched(recognizer, label: "\(kind.rawValue) \(counts[kind]!)")
            recognizers.append(watched)
            let window = recorder.window
            // Past the lanes drawn, recognizers are counted only.
            guard recognizers.count <= RunTrace.maxRecognizers else { continue }
            recognizer.addListener { [unowned runtime, unowned recorder, unowned watched] value in
                let t = runtime.time
                let state = value.state
                if t > window.upperBound { return }
                // An active stretch that began before the window starts at its edge.
                let at = max(t, window.lowerBound)
                if state.isActive { watched.bands.open(at: at) } else { watched.bands.close(at: at) }
                guard t >= window.lowerBound else { return }
                recorder.extend(to: t)
                if state != .possible && !state.isActive { watched.finals.append(.init(t: t, state: state)) }
            }
        }
        attached = all.count
    }
}

extension GestureRecognizer {
    var kind: GestureKind { value.kind }
}
