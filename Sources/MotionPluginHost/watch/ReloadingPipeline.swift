import MotionGestures
import MotionInput
import MotionLua

/// A pipeline whose script can be replaced while input flows (`run --watch`).
///
/// `reload()` builds a fresh LuaRuntime and loads the script's current version into it, with
/// the values of the old version's `keep` properties (live input; with an events file, replayed
/// from the start, each version starts from its own initial values). Only when that succeeds is the old
/// runtime closed (which unsubscribes and releases everything it held) and the new one
/// swapped in; otherwise the old one keeps running untouched. Its host (`Plugin`) feeds frames to
/// `runtime`, the current version, so a live frame source can keep reading across a reload:
/// each frame goes to exactly one version, none is lost or fed twice.
public final class ReloadingPipeline {
    /// The run's options; a host may change the limits between loads (a plugin's header).
    public var options: RunOptions
    public let output: MotionOutput
    // `runtime` and `failure` are read before every wait by a host feeding many pipelines (the
    // daemon), on its thread only (unchecked in release: `PluginHost`).
    /// The version running now (nil until a first version loaded).
    public private(set) var runtime: LuaRuntime?
    /// The error that stopped the current version while handling a frame; frames are then
    /// dropped until a reload succeeds.
    public private(set) var failure: ScriptError?
    /// Successful loads, the first included.
    public private(set) var loads = 0
    public private(set) var failedLoads = 0
    private var attemptedFiles: [String] = []
    /// Live input: when set, every version goes on after a callback error, reporting it here
    /// (see `LuaRuntime.onCallbackError`), instead of stopping at the first.
    public var onCallbackError: ((ScriptError) -> Void)? {
        didSet { runtime?.onCallbackError = onCallbackError }
    }
    /// With `onCallbackError`: a failing callback stays subscribed (`LuaRuntime.keepsFailingCallbacks`).
    public var keepsFailingCallbacks = false
    /// The live device, whose description sizes `motion.screen` for `--surface mm`.
    public var screenSource: AnyObject?
    /// Live input: the input time now (the device's clock), so a new version starts where input
    /// time is instead of at 0.
    public var inputTimeNow: (() -> Double?)?
    /// The input time the current version started at: 0, or the reload time on live input.
    public private(set) var startTime = 0.0
    /// Live pointers down now, at their latest position: a new version receives them as
    /// `down`, so a drag in progress at a reload goes on. The host's, which tracks each frame
    /// into it once for all its plugins (`PluginHost.tracksPointers`).
    var pointers = PointersDown()
    /// Called when a new version has loaded, before its setup's output is written, so a
    /// boundary marked here comes before every line of the new version.
    public var willSwap: (() -> Void)?
    /// The focused application a live provider reported last (nil: none reported yet): every
    /// version loaded starts from it.
    public private(set) var focusedApp: AppInfo??
    /// Whether every version writes its focus changes as app lines (`LuaRuntime.writesFocusChanges`);
    /// the daemon writes one line per change for all its plugins instead.
    public var writesFocusChanges = true
    /// Where a failed end of a `motion.exec` child of any version is said, from the reaper's
    /// thread (`ChildQuota.ended`; the daemon: the plugin's log). Nil: the launcher's report.
    public var childEnded: (@Sendable (String) -> Void)?
    /// The script's text when it was read by the host (a script that is a pipe or FIFO, read
    /// once: `Replay.scriptTextIfStream`); nil: Lua reads the file at each load.
    public var scriptText: [UInt8]?
    /// Whether a version's setup is staged — its lines and actions held until it loaded (a
    /// reload must not leave half a setup's work behind). False: `run`'s one version, whose
    /// setup writes and acts as it goes (its lines before an error or `os.exit` are output).
    public var stagesSetup = true
    /// Called with each new version's state before its setup runs (`run --plot` records where
    /// each recognizer was made).
    public var willLoad: ((LuaRuntime) -> Void)?

    /// Told of the recognizers' state changes with their reasons, in this version and every
    /// later one (`ctl monitor --recognizers`); nil: nobody listens.
    public var recognizerObserver: RecognizerObserver? {
        didSet { runtime?.dispatcher.recognizerObserver = recognizerObserver }
    }

    /// A live provider's focus change: to the running version, and to every later one.
    public func setFocusedApp(_ app: AppInfo?) {
        focusedApp = .some(app)
        runtime?.setFocusedApp(app)
    }

    public init(_ options: RunOptions, output: MotionOutput) {
        self.options = options
        self.output = output
        recognizerObserver = options.recognizerObserver
    }

    deinit { runtime?.close() }

    /// Loads the script's current version; on success it replaces the running one. Lines the
    /// new version's setup writes appear only if it loads.
    @discardableResult
    public func reload() -> Result<LuaRuntime, ScriptError> {
        let candidate: LuaRuntime
        let staged = stagesSetup ? StagedOutput(output) : nil
        do {
            candidate = try LuaRuntime(scriptPath: options.scriptPath, output: staged ?? output, memoryLimit: options.memoryLimit,
                                       sandbox: options.sandbox, profile: options.profile,
                                       regularFilesOnly: options.regularFilesOnly)
        } catch let error as ScriptError {
            failedLoads += 1
            return .failure(error)
        } catch {
            failedLoads += 1
            return .failure(ScriptError(.runtime, "\(options.scriptPath): \(error)"))
        }
        // With an events file every version replays it from the start, so its properties start
        // from their initial values too (each replay is what a fresh run gives; carried over, a
        // kept box drifted by the whole replay at each reload). Live input goes on: they carry.
        candidate.inheritedValues = options.eventsPath == nil ? runtime?.keptValues ?? [:] : [:]
        // Its setup may not act until it is accepted: its actions wait, as its lines do.
        candidate.actions = ActionSession(host: options.actions, staged: stagesSetup, childEnded: childEnded)
        candidate.dispatcher.recognizerObserver = recognizerObserver
        // Live input: time goes on — setup lines and motion.time() read the reload time.
        let lastFrameTime = pointers.lastFrameTime
        let resume = loads > 0 ? max(lastFrameTime, inputTimeNow?() ?? lastFrameTime) : inputTimeNow?() ?? 0
        if resume > 0 { candidate.dispatcher.advance(to: resume) }
        Replay.setScreen(of: candidate, options.input, source: screenSource)
        Replay.fixApp(of: candidate, options)
        candidate.writesFocusChanges = writesFocusChanges
        if case .some(let app) = focusedApp { candidate.setFocusedApp(app) }
        candidate.setTimeout(options.timeout)
        if let scriptText { candidate.scriptText = scriptText }
        willLoad?(candidate)
        do {
            try candidate.load(arguments: options.scriptArguments)
        } catch {
            attemptedFiles = candidate.requiredFiles
            candidate.actions.dropStaged()
            candidate.close()
            failedLoads += 1
            return .failure(error as? ScriptError ?? ScriptError(.runtime, "\(error)"))
        }
        candidate.setTimeout(0)
        candidate.onCallbackError = onCallbackError
        candidate.keepsFailingCallbacks = keepsFailingCallbacks
        attemptedFiles = []
        // Performed before the old version lets go of its keys, as they were before setups
        // were staged: a setup's `keys("alt+Tab")` while the old version holds alt is alt+Tab.
        do {
            try candidate.actions.performStaged()
        } catch {
            output.log("motionscript: performing the setup's actions of \(options.scriptPath): \(error)")
        }
        // The old version ends now (its holds go up at the reload time, not its last frame's).
        runtime?.close(at: resume)
        loads += 1
        startTime = resume
        willSwap?()
        staged?.commit()
        runtime = candidate
        failure = nil
        // The fingers on the device go down for the new version where they are now.
        if !pointers.isEmpty {
            do {
                try candidate.handle(Frame(t: resume, events: pointers.handedOver(as: .down, at: resume)))
            } catch let error as ScriptError {
                failure = error
            } catch {}
        }
        return .success(candidate)
    }

    /// Live input: time passed without a frame; the current version runs what fell due.
    public func advance(to t: Double) throws {
        guard let runtime, failure == nil else { return }
        do {
            try runtime.advance(to: t)
        } catch let error as ScriptError {
            failure = error
            throw error
        }
    }

    /// The end of live input: what the current version still has scheduled settles.
    public func finish() throws {
        guard let runtime, failure == nil else { return }
        do {
            try runtime.finish()
        } catch let error as ScriptError {
            failure = error
            throw error
        }
    }

    /// The script and every Lua file the current version required, plus those a failed
    /// attempt required (fixing a broken module must trigger the next attempt).
    public var watchedFiles: [String] {
        var files = [options.scriptPath]
        for file in (runtime?.requiredFiles ?? []) + attemptedFiles where !files.contains(file) {
            files.append(file)
        }
        return files
    }

    /// Ends the running version; `at`: the input time it ends (see `LuaRuntime.close(at:)`).
    public func close(at end: Double? = nil) {
        runtime?.close(at: end)
        runtime = nil
    }
}
