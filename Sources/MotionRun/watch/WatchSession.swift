#if canImport(Glibc)
import MotionPluginHost
import Glibc
#endif
import MotionInput
import MotionLua

/// Options of `run --watch` beyond the run's own.
public struct WatchOptions {
    /// Seconds without another write before a change is acted on (`QuietTime`).
    public var debounce: Double
    /// Stop after this many reload attempts, failed ones included (nil: until stopped). For tests.
    public var maxReloads: Int?
    /// Monotonic seconds, what live input's quiet time is measured on (tests inject one).
    public var clock: () -> Double

    public init(debounce: Double = QuietTime.standard, maxReloads: Int? = nil, clock: @escaping () -> Double = Clock.monotonic) {
        self.debounce = debounce
        self.maxReloads = maxReloads
        self.clock = clock
    }
}

/// `motionscript run SCRIPT --watch [--events FILE]`: load, replay the events, then reload on
/// every change of the script or a Lua file it required and replay again, until `stop()`
/// (SIGINT/SIGTERM in the command). A version that fails to load is reported on stderr and
/// the previous one stays. An error while replaying is reported and the session waits for
/// the next change; only a bad event file ends it (InputError, exit 2).
///
/// The script is the plugin host's one plugin (`PluginHost.forScript`), as in `run` without
/// `--watch`: each version is the plugin's reload, each replay and each live frame goes
/// through the host (`OneScript`).
public final class WatchSession {
    public let host: PluginHost
    /// The script's versions (the host's one plugin's pipeline).
    public var pipeline: ReloadingPipeline { script.pipeline }
    private let script: Plugin
    public let watcher: FileWatcher
    public let watchOptions: WatchOptions
    /// Called on the session's thread each time it starts waiting for a change (tests
    /// rewrite the script then).
    public var onWaiting: (() -> Void)?
    private let diagnostics: (String) -> Void

    public init(_ options: RunOptions, watch: WatchOptions = WatchOptions(), output: MotionOutput,
                diagnostics: @escaping (String) -> Void) throws {
        // A replay is bounded as a whole; live input bounds each call (`runLive`).
        host = PluginHost.forScript(options, output: output, limitsEachCall: false)
        script = host.script!
        // Every version's setup is staged: a version that does not load leaves nothing behind.
        script.pipeline.stagesSetup = true
        watcher = try FileWatcher()
        watchOptions = watch
        self.diagnostics = diagnostics
    }

    /// Makes `run` return once the current replay ends. Safe from any thread.
    public func stop() { watcher.stop() }

    private var scriptName: String { FileWatcher.split(pipeline.options.scriptPath).name }

    public func run() throws {
        defer { host.close() }
        // SIGINT/SIGTERM wake the wait (when the command catches them).
        Interruption.wake(watcher.wakeDescriptor)
        defer { Interruption.stopWaking(watcher.wakeDescriptor) }
        announceSwaps()
        // Watch before the first load, so an edit saved while it loads is not missed.
        watcher.setFiles([pipeline.options.scriptPath] + eventFiles)
        if load() { try replay() }
        var attempts = 0
        while watchOptions.maxReloads.map({ attempts < $0 }) ?? true {
            watcher.setFiles(pipeline.watchedFiles + eventFiles)
            onWaiting?()
            guard case .changed = watcher.wait(debounce: watchOptions.debounce) else { return }
            attempts += 1
            if load() { try replay() }
        }
    }

    /// Live input: hands each frame, as it arrives, to the version current at that moment, runs
    /// what falls due between frames on time, and reloads between frames (`ScriptReloads`), so
    /// across a swap no frame is lost or doubled — the one live loop, `LiveLoop.run`, the daemon's
    /// too. At the end of input what the current version has scheduled settles. Returns why
    /// reading ended (end of input, device gone, or stopped by SIGINT/SIGTERM).
    /// `chain`: what each frame goes through to the script (`LiveInput.chain`; default: straight to it).
    public func runLive(_ device: LiveFrameSource,
                        chain: (OneScript) -> FrameChain<OneScript> = { FrameChain(target: $0) }) throws -> String {
        defer { host.close() }
        Interruption.wake(watcher.wakeDescriptor)
        defer { Interruption.stopWaking(watcher.wakeDescriptor) }
        announceSwaps()
        pipeline.screenSource = device.screenSource
        pipeline.inputTimeNow = { [unowned device] in device.inputTimeNow() }
        // The fingers down are handed to each version; the time limit bounds each call.
        host.tracksPointers = true
        host.limitEachCall()
        // The output, not the pipeline: the host keeps this closure (no retain cycle).
        host.onScriptCallbackError = { [diagnostics, output = pipeline.output] error, _ in
            (output as? JSONLinesOutput)?.flush()
            diagnostics("error: \(error.message)")
            diagnostics("-- that callback is switched off (its subscription unsubscribed); the run goes on --")
        }
        watcher.setFiles([pipeline.options.scriptPath])
        _ = load()
        watcher.setFiles(pipeline.watchedFiles)
        let loop = LiveLoop(device: device)
        let reloads = ScriptReloads(session: self, device: device)
        defer { reloads.close() }
        loop.reloads = reloads
        // A frame's lines leave together in one write as soon as its work is done.
        loop.output = pipeline.output as? JSONLinesOutput
        // An error stops the running version (reported); the next version takes over. One
        // that an interruption caused ends the session.
        loop.onError = { [unowned self] error, atEnd in
            if atEnd {
                diagnostics("error: \(error.message)")
                return nil
            }
            return report(error) ? "stopped" : nil
        }
        // The time limit bounds each frame's work and each reload, never the wait for input.
        return try loop.runScript(chain(OneScript(host, live: true)))
    }

    /// A change of the script or a module, its quiet time over: loads the new version between
    /// live steps (`ScriptReloads`).
    func reload() {
        _ = load()
        watcher.setFiles(pipeline.watchedFiles)
    }

    /// A new recording saved over the events file replays too.
    private var eventFiles: [String] { pipeline.options.eventsPath.map { [$0] } ?? [] }

    /// Says on stderr where a new version takes over, before any line it writes.
    /// On stdout too: one `{"t":…,"reload":…,"version":…}` line (`ReloadMarking`).
    private func announceSwaps() {
        pipeline.willSwap = { [unowned self] in
            guard pipeline.loads > 1 else { return }
            (pipeline.output as? ReloadMarking)?.markReload(t: pipeline.startTime, script: scriptName, version: pipeline.loads)
            (pipeline.output as? JSONLinesOutput)?.flush()
            let events = pipeline.options.eventsPath != nil
            diagnostics("-- reloaded \(scriptName)\(events ? ", replaying events" : "") --")
        }
    }

    /// Loads the script afresh; on failure reports it and keeps the previous version.
    private func load() -> Bool {
        // The setup's lines (and the reload line) leave before any wait for input.
        defer { (pipeline.output as? JSONLinesOutput)?.flush() }
        guard let error = bounded({ host.reloadScript() }) else {
            // The fingers handed to the new version may already meet an error.
            if let failure = pipeline.failure {
                diagnostics("error: \(failure.message)")
                diagnostics("-- waiting for \(scriptName) to change --")
            }
            return true
        }
        diagnostics("error: \(error.message)")
        if Interruption.isRequested { return false }  // the session ends: nothing to wait for
        if pipeline.loads == 0 {
            diagnostics("-- waiting for \(scriptName) to change --")
        } else if script.state != .running {
            diagnostics("-- \(scriptName) did not load, and the previous version stopped at an error: nothing runs; waiting for \(scriptName) to change --")
        } else {
            diagnostics("-- \(scriptName) did not load; the previous version keeps running --")
        }
        return false
    }

    /// Reports an error that stopped the running version; true when an interruption caused it
    /// (the session ends).
    private func report(_ error: ScriptError) -> Bool {
        (pipeline.output as? JSONLinesOutput)?.flush()
        diagnostics("error: \(error.message)")
        if Interruption.isRequested { return true }
        diagnostics("-- waiting for \(scriptName) to change --")
        return false
    }

    /// One load or replay under the watchdog (the Lua hook is set by the pipeline).
    private func bounded<T>(_ body: () throws -> T) rethrows -> T {
        guard let watchdog = pipeline.options.watchdog else { return try body() }
        return try watchdog.bounding(body)
    }

    /// Replays the events from the start (when there are events).
    private func replay() throws {
        defer { (pipeline.output as? JSONLinesOutput)?.flush() }
        guard let path = pipeline.options.eventsPath else { return }
        let source = try Replay.openEvents(path: path, options: pipeline.options.input)
        guard script.state == .running, let runtime = pipeline.runtime else { return }
        // The run's time limit bounds the whole replay, counted from now.
        let timeout = pipeline.options.timeout
        runtime.setTimeout(timeout)
        defer { runtime.setTimeout(0) }
        do {
            var changed = false
            try bounded { try Replay.feedScript(source, to: OneScript(host), timeout: timeout,
                                                  deadline: timeout > 0 ? Clock.monotonic() + timeout : .infinity,
                                                  shouldStop: { [watcher] in
                changed = watcher.hasChanged()
                return changed || watcher.isStopRequested
            }) }
            if changed { diagnostics("-- \(scriptName) changed: replay cut short --") }
        } catch let error as ScriptError {
            _ = report(error)
        }
    }
}
