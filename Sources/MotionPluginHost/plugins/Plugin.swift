import Foundation
import MotionCheck
import MotionGestures
import MotionJSON
import MotionLua
import MotionStreams

/// One plugin: a file at the top of the config folder, the Lua state running its current
/// version (a `ReloadingPipeline`: a new version loads into a fresh state with the old one's
/// `keep` values and the fingers down, and replaces it only if it loads), and the host's
/// bookkeeping — its state, errors and limits. Everything that goes wrong here is this
/// plugin's alone: it is reported under its name and never thrown to the host.
///
/// `run`'s script is the host's one plugin too, under `run`'s policy (`HostPolicy`): its lines
/// go untagged to the run's output, nothing is said of its lifecycle, a callback error is
/// reported as `run` reports it and switches that callback off, and an error that stops the
/// script is kept (`scriptFailure`) for the host to end the run with, as `run` always has.
public final class Plugin {
    public let name: String
    public let path: String
    /// Tagged output (nil under `run`'s policy, whose runtime writes to the run's output itself).
    let output: PluginOutput?
    package let pipeline: ReloadingPipeline
    let router: OutputRouter
    let policy: HostPolicy
    /// The policy's answers read on every call, kept as plain values.
    private let endsRun: Bool
    private let accountsTime: Bool
    /// Under `run`'s policy: the error that stopped the script (the run ends with it).
    var scriptFailure: ScriptError?
    /// `run`'s script on live input: told of each callback error (which switched that callback
    /// off), with the input time it happened at. Nil (a file): the first error stops the script.
    var onScriptCallbackError: ((ScriptError, Double) -> Void)? {
        didSet {
            pipeline.onCallbackError = onScriptCallbackError == nil ? nil : { [unowned self] error in
                callbackErrors += 1
                onScriptCallbackError?(error, pipeline.runtime?.time ?? 0)
            }
        }
    }
    /// Under `run`'s policy on live input: the callback errors the script survived.
    var callbackErrors = 0
    // What a call into the plugin reads and writes (`begin`, `end`) is used on the host's thread
    // only, and no access to it is held across the call into Lua. The release build checks no
    // access (`PluginHost`); debug builds, where the tests run, do.
    public private(set) var state: PluginState = .failed {
        didSet { running = state == .running ? pipeline.runtime : nil }
    }
    /// The pipeline's runtime while the plugin runs (nil otherwise): what every call reads, beside
    /// `state`. Set with `state`, cleared by `closePipeline`.
    private var running: LuaRuntime? {
        didSet {
            runningRef = running.map(Unretained.init)
            noteWatch()
        }
    }
    /// `running`, held by it (`Unretained`'s owner): a frame reaches the runtime without a retain
    /// and a release of it per plugin. Set exactly while `running` holds the runtime, and nothing
    /// inside a call clears `running`; a call that failed or asked to disable the plugin, which may close
    /// the runtime, takes a reference of its own first (`settle`).
    private var runningRef: Unretained<LuaRuntime>?
    public internal(set) var limits: PluginLimits {
        didSet { timeLimit.timeout = limits.timeout }
    }
    /// Each call's deadline, watch word and clock (`TimeLimit`).
    private var timeLimit = TimeLimit()
    /// Errors of the version running (reset when a new version loads), and of the versions
    /// that failed to replace it since.
    public private(set) var errorCount = 0
    public private(set) var lastError: String?
    /// Input times of the recent callback errors (the error policy's window).
    private var recentErrors: [Double] = []
    /// Set by a callback error that crossed the policy's line, acted on after the call returns
    /// (a state is not closed from inside its own callback).
    private var disableRequested: String?
    public private(set) var busySeconds = 0.0
    /// Stops a call at its limit and ends the process when one hangs outside Lua (`Watchdog`:
    /// the daemon's records the culprit). `watchSlot`: this plugin's place in it.
    var watchdog: Watchdog? {
        didSet {
            if let slot = watchSlot { oldValue?.remove(slot) }
            watchSlot = watchdog?.add()
            timeLimit.watch(by: watchdog, slot: watchSlot)
            // Given to a plugin already loaded: what the watchdog says and stops for it.
            if let watchdog, let watchSlot {
                watchdog.update(watchSlot, plugin: name, identity: identity, timeout: limits.timeout, limiter: running?.limiter)
            }
            noteWatch()
        }
    }

    /// Tells the running version's state whether a watchdog's thread stops it at each call's
    /// limit: every call into it with a time limit publishes that limit (`TimeLimit.begin`: the
    /// plugin's slot in `watchdog`), so its Lua code runs
    /// with no hook until then (`LuaRuntime.isWatched`; docs/daemon.md "Limits"). A version
    /// loading is not the plugin's yet (its load is not stoppable by the watchdog): it keeps
    /// the count hook until it runs.
    private func noteWatch() {
        guard let running else { return }
        running.isWatched = watchSlot != nil && watchdog?.stopsStates == true
    }
    private var watchSlot: Int?
    /// The host's clock, read when a call ends (`PluginHost.clock`; nil: `TimeLimit.now`).
    var clock: (() -> Double)?
    /// The plugin that hung the daemon last time, if any (`HangRecord`).
    var hangRecord: HangRecord?
    /// The file's identity when it was last read (what the hang record names).
    private var identity = ""

    /// Callback errors within `errorWindow` seconds of input time that disable the plugin.
    public static let maxErrors = 5
    public static let errorWindow = 10.0

    init(name: String, path: String, options: RunOptions, policy: HostPolicy, router: OutputRouter, limits: PluginLimits) {
        self.name = name
        self.path = path
        self.limits = limits
        timeLimit.timeout = limits.timeout
        self.router = router
        self.policy = policy
        endsRun = policy.endsRun
        accountsTime = policy.accountsTime
        var options = options
        options.scriptPath = path
        if case .plugin = policy.library {
            options.profile = PluginProfile.source(plugin: name)
            options.regularFilesOnly = PluginProfile.regularFilesOnly(plugin: name)
            options.scriptArguments = []
        }
        switch policy.output {
        case .tagged:
            let output = PluginOutput(name: name, router: router)
            self.output = output
            pipeline = ReloadingPipeline(options, output: output)
            // The host writes one app line per focus change for the whole daemon (`PluginHost.setFocusedApp`).
            pipeline.writesFocusChanges = false
        case .run(let output):
            self.output = nil
            pipeline = ReloadingPipeline(options, output: output)
            // One version: its setup writes and acts as it goes (`--watch` stages each version's).
            pipeline.stagesSetup = false
        }
        if !endsRun {
            pipeline.keepsFailingCallbacks = true
            pipeline.onCallbackError = { [unowned self] error in callbackFailed(error) }
        }
        if policy.announces {
            // The lifecycle line comes before every line of the version it announces.
            pipeline.willSwap = { [unowned self] in
                router.lifecycle(t: pipeline.startTime, plugin: name, status: version > 1 ? .reloaded : .loaded, version: version)
            }
        }
    }

    public var version: Int { pipeline.loads }
    public var runtime: LuaRuntime? { running }

    private func closePipeline(at t: Double? = nil) {
        pipeline.close(at: t)
        running = nil
    }

    /// Loads the file's current version (the first, or a reload). A version that does not load
    /// leaves the running one (if any) in place. `defaults`: the host's limits, which a plugin's
    /// header may override (`run`'s come from its command line). Under the daemon's policy it
    /// says what happened (the lifecycle line, `check`'s findings); under `run`'s the caller
    /// does. Returns the error when the version did not load.
    @discardableResult
    func load(at t: Double, defaults: PluginLimits) -> ScriptError? {
        var source: String?
        if case .plugin = policy.library {
            guard let text = pluginSource(at: t, defaults: defaults) else {
                return ScriptError(.runtime, lastError ?? "\(path): not loaded")
            }
            source = text
            pipeline.options.timeout = limits.timeout
            pipeline.options.memoryLimit = limits.memoryBytes
        }
        let wasRunning = state == .running && pipeline.runtime != nil
        let start = Clock.monotonic()
        if let watchdog, let watchSlot {
            // The new version's state is not the plugin's yet: only the last resort applies to it.
            watchdog.update(watchSlot, plugin: name, identity: identity, timeout: limits.timeout, limiter: pipeline.runtime?.limiter)
            watchdog.armCall(watchSlot, start: start, timeout: limits.timeout, stoppable: false)
        }
        output?.collected = []
        output?.collecting = true
        let result = pipeline.reload()
        output?.collecting = false
        // After a load (start-up, a reload: rare), the thread's look is cancelled at once, so a
        // host that then waits for input does not wake for it.
        watchdog?.disarm()
        watchdog?.quiesce()
        if let watchdog, let watchSlot {
            watchdog.update(watchSlot, plugin: name, identity: identity, timeout: limits.timeout, limiter: pipeline.runtime?.limiter)
        }
        busySeconds += Clock.monotonic() - start
        switch result {
        case .success:
            scriptFailure = nil
            state = .running
            // `ctl status` tells of the version running: the errors of an earlier one (fixed
            // since) are not its own.
            recentErrors = []
            errorCount = 0
            lastError = nil
            if let source { checkSource(source) }
            // The fingers handed to the new version may already meet an error: it stops that
            // version (under `run`'s policy its caller reports it, as it reports a load's error).
            if let failure = pipeline.failure {
                if endsRun { state = .failed } else { stopped(by: failure) }
            }
            return nil
        case .failure(let error):
            loadFailed(at: t, error.message, keepsRunning: wasRunning)
            return error
        }
    }

    /// A plugin's file, read before it loads: nil when it cannot load (said, as a failed load).
    /// Its header sets its limits; a plugin that hung the daemon last time is not loaded.
    private func pluginSource(at t: Double, defaults: PluginLimits) -> String? {
        // A FIFO would wait for a writer (Foundation refuses one as "no permission").
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let what = info.st_mode & S_IFMT == S_IFIFO ? "a FIFO" : info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "a device or socket"
            loadFailed(at: t, "\(path): \(what), not a regular file: a plugin is a regular file")
            return nil
        }
        let source: String
        switch PluginFiles.read(path) {
        case .success(let text): source = text
        case .failure(let why):
            loadFailed(at: t, "\(path): cannot read the plugin: \(why)")
            return nil
        }
        // A version whose text names a key or button that does not exist fails at that gesture,
        // whenever it comes: it does not replace a version that works (docs/daemon.md "Check
        // before it goes live"). With no version running, it loads: its other gestures work.
        if state == .running, pipeline.runtime != nil, let error = PluginCheck.certainErrors(file: path, text: source).first {
            loadFailed(at: t, "\(path)\(error.line.map { ":\($0)" } ?? ""): \(error.message) (check: this call would fail each time it runs)",
                       keepsRunning: true)
            return nil
        }
        switch defaults.overridden(by: source) {
        case .success(let limits): self.limits = limits
        case .failure(let error):
            loadFailed(at: t, "\(path): header: \(error)")
            return nil
        }
        identity = HangRecord.identity(of: path)
        if let hangRecord, hangRecord.isCulprit(path) {
            closePipeline(at: t)
            state = .failed
            disable(at: t, reason: "\(path): hung the daemon at its last run (blocked in a C function past its time limit); not loaded until the file changes")
            return nil
        }
        return source
    }

    /// What `check` finds in the version just loaded (docs/daemon.md): said in the log under the
    /// plugin's name, at its priority, and kept for `ctl status` with the runtime's warnings of
    /// the load. An error-level finding (an unknown key name in a callback, say) does not stop
    /// the load: the plugin's other gestures work, and that call fails when it runs.
    private func checkSource(_ source: String) {
        let collected = output?.collected ?? []
        let found = PluginCheck.textFindings(file: path, text: source, runtimeLines: collected)
        for finding in found {
            router.diagnostic(name, "\(finding.severity.rawValue): \(path)\(finding.line.map { ":\($0)" } ?? ""): \(finding.message)")
        }
        findings = collected.filter { $0.hasPrefix("warning: ") || $0.hasPrefix("error: ") }
            + found.map { "\($0.severity.rawValue): \(path)\($0.line.map { ":\($0)" } ?? ""): \($0.message)" }
    }

    /// The findings of the version running: `check`'s, the runtime's warnings while it loaded,
    /// and the bindings it shares with other plugins.
    public internal(set) var findings: [String] = []

    private func loadFailed(at t: Double, _ message: String, keepsRunning: Bool = false) {
        errorCount += 1
        lastError = message
        if !keepsRunning { state = .failed }
        guard policy.announces else { return }
        router.lifecycle(t: t, plugin: name, status: .failed, version: keepsRunning ? version : 0, error: message)
        router.diagnostic(name, "error: \(message)")
        if keepsRunning {
            router.diagnostic(name, "the new version did not load; version \(version) keeps running")
        } else {
            router.diagnostic(name, "not running; waiting for \(FileWatcherNames.base(path)) to change")
        }
    }

    // Calls into the plugin. Each starts at `start`, the host's clock read when the call before
    // it ended (`PluginHost.eachPlugin`: one read per call, not three; `TimeLimit`), and
    // returns when it ended, for the next call.

    /// Feeds one frame (a plugin not running has nothing to feed: the host tracks the fingers
    /// down for its next version).
    func handle(_ frame: Frame, from start: Double) -> Double {
        guard let ref = runningRef else { return start }
        // Straight to the runtime: the pipeline's `handle` would track the fingers (the host
        // does, once for all) and note the error that stops the version (here `stopped(by:)`
        // closes it at once). Spelled out rather than through `bounded`: a closure would copy
        // the frame for every plugin. Nothing inside the call closes the runtime (a callback's
        // error only asks for it, `disableRequested`), so `running` holds it throughout.
        let failure = ref.with { runtime -> Error? in
            timeLimit.begin(runtime, from: start)
            do {
                try runtime.handle(frame)
            } catch {
                return error
            }
            if !accountsTime { timeLimit.endUncounted(runtime) }
            return nil
        }
        if failure != nil || disableRequested != nil {
            return settle(ref.object, failure, from: start)
        }
        return accountsTime ? end(from: start) : start
    }

    /// The end of a call that failed or asked to disable the plugin: the runtime held here, as
    /// closing the plugin may release the plugin's own reference to it.
    @inline(never)
    private func settle(_ runtime: LuaRuntime, _ failure: Error?, from start: Double) -> Double {
        if let failure { failed(failure) }
        return end(runtime, from: start)
    }

    /// A desktop provider's focus change, under the plugin's time limit (`motion.app.changes()`
    /// subscribers run); also when not running: the next version starts from it.
    func setFocusedApp(_ app: AppInfo?, from start: Double) -> Double {
        guard let runtime = running else {
            pipeline.setFocusedApp(app)
            return start
        }
        return bounded(runtime, from: start) { _ in pipeline.setFocusedApp(app) }
    }

    /// What the running version has waiting on time (nil: nothing, or not running), asked before
    /// every wait: the runtime reached unretained, as a frame reaches it. A version that met an
    /// error it cannot go on from while the plugin still counts as running (a focus change's
    /// subscriber, `setFocusedApp`) has nothing due, as the pipeline says: its due work would
    /// never run, and the loop would not wait.
    var nextDueTime: Double? {
        guard let ref = runningRef, pipeline.failure == nil else { return nil }
        return ref.with { $0.nextDueTime }
    }

    func advance(to t: Double, from start: Double) -> Double {
        guard let runtime = running else { return start }
        return bounded(runtime, from: start) { _ in try pipeline.advance(to: t) }
    }

    func finish(from start: Double) -> Double {
        guard let runtime = running else { return start }
        return bounded(runtime, from: start) { _ in try pipeline.finish() }
    }

    /// One call into the plugin under its time limit, counted from `start`; what goes wrong
    /// stays here. Returns the clock read when the call ended.
    private func bounded(_ runtime: LuaRuntime, from start: Double, _ body: (LuaRuntime) throws -> Void) -> Double {
        timeLimit.begin(runtime, from: start)
        do {
            try body(runtime)
        } catch {
            failed(error)
        }
        return end(runtime, from: start)
    }

    private func failed(_ error: Error) {
        stopped(by: error as? ScriptError ?? ScriptError(.runtime, "\(error)"))
    }

    /// A call ended: the clock read, charged to the plugin and returned for the next call.
    @inline(__always)
    private func end(_ runtime: LuaRuntime, from start: Double) -> Double {
        if !accountsTime {
            timeLimit.endUncounted(runtime)
            return start
        }
        let end = end(from: start)
        if let reason = disableRequested {
            disableRequested = nil
            disable(at: runtime.time, reason: reason)
        }
        return end
    }

    /// `end` of a call that asked nothing of the plugin (`disableRequested` nil).
    @inline(__always)
    private func end(from start: Double) -> Double {
        // The clock called where it is kept: handed to `TimeLimit` as an argument, the closure
        // was copied (its context retained and released) for every call.
        let end = clock?() ?? timeLimit.coarseNow()
        timeLimit.ended()
        busySeconds += end - start
        return end
    }

    /// A callback raised: reported each time, its subscription kept; too many in a short
    /// stretch of input time disable the plugin.
    private func callbackFailed(_ error: ScriptError) {
        errorCount += 1
        lastError = error.message
        router.flush()
        router.diagnostic(name, "error: \(error.message)")
        let now = pipeline.runtime?.time ?? 0
        recentErrors.append(now)
        recentErrors.removeAll { $0 < now - Self.errorWindow }
        if recentErrors.count >= Self.maxErrors, disableRequested == nil {
            disableRequested = "\(Self.maxErrors) errors within \(JSONText.number(Self.errorWindow)) s; the last: \(error.message)"
        }
    }

    /// The running version stopped at an error it cannot go on from (a time limit, memory, an
    /// error outside a callback): its state is closed, releasing what it held.
    private func stopped(by error: ScriptError) {
        // Under `run`'s policy the run ends with the error (an interruption's too), its state
        // closing with the host.
        if endsRun {
            scriptFailure = scriptFailure ?? error
            state = .failed
            return
        }
        // Ctrl-C stops the host, not the plugin.
        if Interruption.isRequested { return }
        let t = pipeline.runtime?.time ?? 0
        if error.kind == .timeout {
            return disable(at: t, reason: error.message)
        }
        errorCount += 1
        lastError = error.message
        closePipeline()
        state = .failed
        router.flush()
        router.lifecycle(t: t, plugin: name, status: .failed, version: version, error: error.message)
        router.diagnostic(name, "error: \(error.message)")
        router.diagnostic(name, "stopped; waiting for \(FileWatcherNames.base(path)) to change")
    }

    /// Switches the plugin off until its file changes (or `enable`), releasing what it holds.
    func disable(at t: Double, reason: String?) {
        guard state != .disabled else { return }
        if let reason {
            errorCount += 1
            lastError = reason
        }
        closePipeline(at: t)
        state = .disabled
        router.flush()
        router.lifecycle(t: t, plugin: name, status: .disabled, version: version, error: reason)
        if let reason { router.diagnostic(name, "error: \(reason)") }
        router.diagnostic(name, "disabled until \(FileWatcherNames.base(path)) changes")
    }

    /// The plugin's file went away (or the host stops): its state closes, releasing its holds.
    /// (`announce` false: the host stops; the plugin's last state stays for the exit status.)
    func unload(at t: Double?, announce: Bool = true) {
        closePipeline(at: t)
        guard announce else { return }
        router.lifecycle(t: t ?? 0, plugin: name, status: .unloaded, version: version)
        state = .failed
    }

    /// The files whose change reloads this plugin: its own and every module it required.
    var watchedFiles: [String] { pipeline.watchedFiles }

    public var status: PluginStatus {
        PluginStatus(name: name, path: path, state: state, version: version, errors: errorCount, lastError: lastError,
                     memory: runtime?.memoryUsed ?? 0, cpuSeconds: busySeconds,
                     recognizers: runtime.map { RecognizerSignature.describe($0.dispatcher.recognizers) } ?? [],
                     limits: limits, findings: findings)
    }
}

/// File names for messages.
enum FileWatcherNames {
    static func base(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
