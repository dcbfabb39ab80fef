import CLua
import CLuaShim
import MotionGestures
import MotionJSON
import MotionStreams

/// One script's world: a Lua state with the `motion` module, the recognizers, properties and
/// subscriptions the script made, and the first error it raised. Closing it unsubscribes
/// everything and closes the state, which releases every Swift object Lua held.
public final class LuaRuntime {
    public let scriptPath: String
    public let dispatcher = PointerDispatcher()
    public let output: MotionOutput
    /// The first error raised by the script or a callback; processing stops once it is set.
    public private(set) var pendingError: ScriptError? { didSet { updateGate() } }

    @usableFromInline let mainState: OpaquePointer
    /// The lua_State of the binding running now (a coroutine's, possibly), for callbacks.
    var activeState: OpaquePointer? { didSet { updateGate() } }
    /// What callbacks check before every call, kept current here (see `LuaCallGate`).
    let gate: LuaCallGate
    /// Each kept subscription with the order it was made in (see `close()`).
    private var subscriptions: [ObjectIdentifier: (order: Int, subscription: Subscription)] = [:]
    private var subscriptionsMade = 0
    /// Set when `close()` begins: bindings, callbacks and emitting subscriptions refuse from then on.
    public private(set) var isClosed = false { didSet { updateGate() } }
    /// Whether the script runs in the restricted standard library (see `Sandbox`).
    public let isSandboxed: Bool
    /// The bindings this state's Lua functions call, by index (see `BindingTable`).
    var bindings: [Binding] = []
    /// `requireToFail` relations made so far (see `RecognizerFactories.maxRequirements`).
    var requirementCount = 0
    /// Live input: each device's `device` table, made once (see `DeviceTables`).
    let deviceTables = DeviceTables()

    /// The script's keys, mouse and exec: performed through the host's `ActionHost` (set
    /// before `load()`; by default only reported as output lines). Held keys are released when
    /// the runtime closes.
    public var actions = ActionSession.outputOnly()

    /// Values a previous version of the script left in its `keep` properties; a property made
    /// with the same keep name starts from it (hot reload). Set before `load()`.
    public var inheritedValues: [String: MotionValue] = [:]
    /// This state's properties made with `{keep = name}`.
    var keptProperties: [String: LuaProperty] = [:]
    private var keptAtClose: [String: MotionValue] = [:]
    private var requiredAtClose: [String] = []

    /// - Parameters:
    ///   - memoryLimit: bytes Lua may allocate (0 = no limit); what Swift allocates for the
    ///     script (values it converts, tables it pushes) counts too.
    ///   - sandbox: load the script into the restricted standard library (see `Sandbox`).
    ///   - profile: Lua source run after the standard library (and the sandbox) and before the
    ///     script, to shape the library for a host (the daemon's plugin profile, docs/daemon.md).
    ///     Its chunk's argument (`...`) is a function that writes its one string argument to
    ///     stderr through `output.standardError` (`HostStandardError`).
    ///   - regularFilesOnly: when set, the script opens files without blocking and regular files
    ///     only, and stdin reads as empty (`RegularFiles`); the text ends each refusal.
    public init(scriptPath: String, output: MotionOutput, memoryLimit: Int = 0, sandbox: Bool = false,
                profile: String? = nil, regularFilesOnly: String? = nil) throws {
        guard memoryLimit >= 0, let L = ms_newstate(memoryLimit) else {
            throw ScriptError(.memory, "\(scriptPath): cannot create a Lua state (out of memory)")
        }
        self.scriptPath = scriptPath
        self.output = output
        isSandboxed = sandbox
        mainState = L
        deadlineSlot = ms_deadlineslot(L)
        // This thread's stack bounds, which the first callback checks (`hasStackLeft`), found now:
        // on the main thread glibc reads them from /proc/self/maps (some 2 million instructions
        // with Swift's libraries mapped), which at the first gesture delayed its action and was
        // counted in the frames of the first swipe.
        _ = ms_stacksize()
        gate = LuaCallGate(state: L)
        limiter.attach(L)
        ms_setowner(L, Unmanaged.passUnretained(self).toOpaque())
        luaL_openlibs(L)
        // Before anything wraps them: the library functions that loop in C, stoppable (CLuaShimBounded.h).
        ms_bounded_install(L)
        // Before TextChunks and RequireTracking, which build dofile and require on these.
        if let regularFilesOnly { RegularFiles.install(on: Lua(L), why: regularFilesOnly) }
        TextChunks.install(on: Lua(L))
        if sandbox { Sandbox.install(on: Lua(L)) }
        ms_interrupt_trackcoroutines(L)
        ms_finalizers_install(L)
        Metatables.install(on: Lua(L))
        MotionModule.install(on: Lua(L), scriptPath: scriptPath)
        RequireTracking.install(on: Lua(L))
        // Last: a profile may replace what the module installed (`print`).
        if let profile { Prelude.run(profile, on: Lua(L), bindings: [HostStandardError.write]) }
        gate.owner = self
        watchClock()
        dispatcher.focus.onUndecidable = { [unowned self] in
            appsMetUnknownFocus = true
            output.log("warning: \(scriptPath): \(Self.unknownFocusNote)")
        }
        dispatcher.focus.addListener { [unowned self] app in
            if writesFocusChanges { output.emit(t: time, app: AppFunctions.value(of: app)) }
        }
    }

    /// What the once-a-run warning says when a recognizer's `apps =` is decided while the focus
    /// is unknown (`motionscript test` says it of each scenario it concerns).
    public static let unknownFocusNote = "the focused application is unknown (no desktop provider, no app line in the events, no --app): recognizers whose 'apps' name applications do not begin; those that only exclude (\"!name\") do"

    /// Whether a recognizer's `apps =` was decided while the focus was unknown (see
    /// `unknownFocusNote`).
    public private(set) var appsMetUnknownFocus = false

    /// Whether each focus change is an output line (`{"t":…,"app":…}`), so a live run's output
    /// shows what `apps =` was decided against and a replay of it writes the same lines.
    public var writesFocusChanges = true

    /// The focused application changed (a desktop provider's report): like an event file's
    /// app line, at the current input time. See `AppFocus`.
    public func setFocusedApp(_ app: AppInfo?) {
        guard !isClosed else { return }
        dispatcher.focus.set(app)
    }

    /// `--app NAME`: the focused application for the whole run (later changes are ignored).
    public func fixFocusedApp(_ app: AppInfo?) {
        dispatcher.focus.fix(app)
    }

    deinit {
        close()
        gate.owner = nil
    }

    /// The runtime of a state; nil once it has begun closing.
    static func owner(of L: OpaquePointer) -> LuaRuntime? {
        guard let owner = ms_owner(L) else { return nil }
        return Unmanaged<LuaRuntime>.fromOpaque(owner).takeUnretainedValue()
    }

    var callState: OpaquePointer? { isClosed ? nil : (activeState ?? mainState) }

    private func updateGate() {
        gate.state = pendingError == nil ? callState : nil
        gate.isOpen = !isClosed
    }

    /// Native stack a pipeline step needs left before it goes deeper (a callback, a property
    /// write): more than the deepest chain of Swift operators between two such steps
    /// (`StreamMethods.maxChainDepth`) can take. On threads with less than 8 MiB of stack, a
    /// quarter of it.
    static let stackReserve = 2 << 20

    /// False, with the error recorded, when the native stack is too low to go deeper: the
    /// script built a pipeline that feeds itself (through properties or callbacks) too deep.
    func hasStackLeft(_ place: String) -> Bool {
        if ms_stacklow(Self.stackReserve) == 0 { return true }
        fail(.runtime, "\(place) the pipeline is nested too deeply (properties or callbacks feeding each other); stopped before the stack ran out")
        return false
    }

    /// The input time of what is happening now: the frame being processed, or, while a value
    /// decided later than it was due flows (a tap recognized when its rival's interval ran out,
    /// a delayed value, a spring frame), the time it fell due. Output lines carry this time.
    public var time: Double { timeOverride ?? dispatcher.time }
    private var timeOverride: Double?
    /// Monotonic time (`ms_monotonic`) past which the script is stopped, 0: none; see
    /// `setDeadline`. The one copy is the state's own (`ms_Extra.deadline`, interrupt.c), which
    /// its hooks read; this reads it where it is kept, without a call (a daemon compares it for
    /// every plugin call, `Plugin.begin`). Written only through `setDeadline`, on the thread that
    /// runs the state; no other thread reads it (a watchdog stops a state through `limiter`).
    @inlinable public var deadline: Double { deadlineSlot.pointee }
    /// Where `deadline` is kept: in the state until `close`, then a zero of its own (the state's
    /// block is freed with it). Set in `init` and `close` only, on the runtime's thread.
    @usableFromInline var deadlineSlot: UnsafePointer<Double>
    /// A zero, never written: what a closed runtime's `deadlineSlot` points to.
    nonisolated(unsafe) private static let noDeadline: UnsafePointer<Double> = {
        let slot = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        slot.initialize(to: 0)
        return UnsafePointer(slot)
    }()

    /// Whether the state's deadline has passed (false without one): where no Lua code runs for
    /// its hook to see it (the clock's drain).
    private var isPastDeadline: Bool {
        let deadline = self.deadline
        return deadline > 0 && ms_monotonic() > deadline
    }

    /// Whether something up the call stack already set the time (`withTime`).
    var isTimeSet: Bool { timeOverride != nil }

    /// Runs `body` with `time` reading `t` (see `time`).
    func withTime(_ t: Double, _ body: () -> Void) {
        let saved = timeOverride
        timeOverride = t
        defer { timeOverride = saved }
        body()
    }

    /// Sets `motion.screen` to the input surface's size (`--surface`), so scripts can place edge
    /// zones without hard-coded numbers. Call before `load()`; without it the screen is infinite.
    public func setScreenSize(width: Double, height: Double) {
        guard !isClosed else { return }
        let lua = Lua(mainState)
        let base = lua.top
        defer { lua.top = base }
        lua_rawgeti(mainState, ms_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        lua_pushstring(mainState, "motion")
        guard lua_rawget(mainState, -2) == LUA_TTABLE else { return }
        lua_pushstring(mainState, "screen")
        LuaObject.push(ElementBox(.screen(width: width, height: height)), .element, on: lua)
        lua_rawset(mainState, -3)
    }

    /// `devices` of the recognizer options being read, for the recognizer about to be added.
    var pendingDevices: [String]?
    /// `apps` of the recognizer options being read, likewise.
    var pendingApps: AppFilter?

    /// Whether recognizers remember every script line on the stack where they were made
    /// (`creationSites`): on for `plot` only. Set before `load()`.
    public var recordsCreationSites = false
    /// Where each recognizer was made, by its identity (see CreationSite).
    public internal(set) var creationSites: [ObjectIdentifier: [CreationSite]] = [:]

    /// Bytes the Lua state holds now.
    public var memoryUsed: Int { isClosed ? 0 : Int(ms_memoryused(mainState)) }

    public var subscriptionCount: Int { subscriptions.count }

    /// Lua functions held by Swift right now (callbacks of map, filter, subscribe): a leak
    /// check, since each holds a registry reference and the closures around it.
    public internal(set) var liveCallbacks = 0

    /// The script's text when the host read it already (a FIFO or pipe, read interruptibly);
    /// nil: `load` reads `scriptPath`.
    public var scriptText: [UInt8]?

    /// Loads the script and runs its setup. Throws ScriptError (syntax, runtime, timeout, memory).
    /// `arguments` reach the script as the `lua` interpreter gives them: the global `arg`
    /// (`arg[0]` the script path, `arg[1]`… the arguments) and the chunk's `...`.
    public func load(arguments: [String] = []) throws {
        let lua = Lua(mainState)
        let base = lua.top
        defer { lua.top = base }
        ms_pushcfunction(mainState, ms_traceback)
        // Text only: Lua does not verify bytecode, and a crafted binary chunk can crash it.
        let status: Int32
        if let scriptText {
            status = scriptText.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
                luaL_loadbufferx(mainState, $0.baseAddress, $0.count, "@" + scriptPath, "t")
            }
        } else {
            status = luaL_loadfilex(mainState, scriptPath, "t")
        }
        if status != LUA_OK {
            let message = lua.string(at: -1) ?? "cannot load \(scriptPath)"
            throw ScriptError(status == LUA_ERRSYNTAX ? .syntax : .runtime,
                              status == LUA_ERRFILE ? message.replacingOccurrences(of: "cannot open ", with: "cannot open script ") : message)
        }
        guard lua_checkstack(mainState, Int32(clamping: arguments.count) + 4) != 0 else {
            throw ScriptError(.memory, "\(scriptPath): too many script arguments (\(arguments.count))")
        }
        // _G.arg, set raw: no metamethod can run (or raise) here.
        lua_rawgeti(mainState, ms_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        lua.push("arg")
        lua.newTable(arrayCount: Int32(clamping: arguments.count), recordCount: 1)
        for (i, argument) in ([scriptPath] + arguments).enumerated() {
            lua.push(argument)
            lua_rawseti(mainState, -2, lua_Integer(i))
        }
        lua_rawset(mainState, -3)
        lua.pop()
        for argument in arguments { lua.push(argument) }
        inSetup = true
        let runStatus = ms_pcalllua(mainState, Int32(arguments.count), 0, base + 1)
        inSetup = false
        if runStatus != LUA_OK {
            reportLuaError(status: runStatus, lua: lua)
        }
        if let pendingError {
            streamsMadeInSetup = []
            throw pendingError
        }
        noteUnusedStreams()
    }

    /// True while the script's main chunk (its setup) runs.
    var inSetup = false
    /// The streams the setup made, with the `file:line: ` that made each (cleared after it).
    var streamsMadeInSetup: [(stream: LuaStream, place: String)] = []

    /// "Nothing flows until a subscription": a stream the setup built and never subscribed,
    /// emitted or used in another is most likely a forgotten `:subscribe`, and the run would
    /// say nothing. A note on stderr names where each was made.
    private func noteUnusedStreams() {
        let unused = streamsMadeInSetup.filter { !$0.stream.used }.map { $0.place.hasSuffix(": ") ? String($0.place.dropLast(2)) : "?" }
        streamsMadeInSetup = []
        guard !unused.isEmpty else { return }
        let shown = unused.prefix(5).joined(separator: ", ") + (unused.count > 5 ? " and \(unused.count - 5) more" : "")
        output.log("note: \(unused.count == 1 ? "a stream was" : "\(unused.count) streams were") built and never subscribed (\(shown)): nothing flows until s:subscribe(…) or s:emit(name)")
    }

    /// The script's global `name` as a value (a property gives its current value).
    public func global(_ name: String) -> MotionValue? {
        guard !isClosed else { return nil }
        let lua = Lua(mainState)
        // Raw: a script may give _G a metatable whose __index raises, and no Lua error may
        // unwind through this Swift frame.
        lua_rawgeti(mainState, ms_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        lua.getField(name, in: -1)
        defer { lua.pop(2) }
        if let property: LuaProperty = LuaObject.get(lua, at: -1, .property) { return property.property.read() }
        return try? LuaConversion.value(lua, at: -1)
    }

    /// Feeds one input frame to the script's recognizers. Throws the first script error.
    /// Inlinable: a daemon calls it for every plugin and frame, and the call itself was a fifth
    /// of what the runtime adds to the dispatch (`settle(before:)`, inlined, as written here).
    @inlinable @inline(__always)
    public func handle(_ frame: Frame) throws {
        guard !isClosed else { return }
        if pendingError == nil,
           Unretained(dispatcher.clock).with({ $0.hasActionDue(before: frame.t) }) {
            settleDue(before: frame.t)
        }
        dispatcher.dispatch(frame)
        if pendingError != nil { try frameFailed() }
    }

    /// A frame ended with a script error: thrown, once what the script holds is let go of.
    @usableFromInline
    func frameFailed() throws {
        guard let pendingError else { return }
        // A callback that failed may never run its keyUp: let go of what the script holds now.
        actions.releaseAll(at: time, output: output)
        throw pendingError
    }

    /// The end of input: decisions still waiting on time (a tap waiting for its interval) are
    /// made, and everything scheduled on the input clock (delays, springs) runs, each stamped
    /// with the time it fell due. Throws the first script error.
    public func finish() throws {
        if let pendingError { throw pendingError }
        guard !isClosed else { return }
        let end = time
        settle(before: end + Self.settleHorizon)
        // Stopped early (an error, the time limit): what is still scheduled must not run.
        if let pendingError { throw pendingError }
        if let next = dispatcher.clock.nextTime {
            fail(.runtime, "\(scriptPath): scheduled work (delay, spring or tween) still running \(JSONText.number(Self.settleHorizon)) s of input time after the end of input (next at t=\(JSONText.number(next))); stopped: does a delay feed itself?")
            throw pendingError!
        }
        dispatcher.finish()
        if let pendingError { throw pendingError }
    }

    /// Live input: the input time at which something falls due without input (a tap decision,
    /// a delay, a spring frame), so the host can wake then; nil when nothing waits on time.
    /// (Inlinable: asked before every wait of live input.)
    @inlinable
    public var nextDueTime: Double? {
        @inline(__always) get { pendingError == nil ? dispatcher.nextDueTime : nil }
    }

    /// Live input: input time reached `t` with no frame (the device was quiet): runs, in time
    /// order, what fell due by then, each stamped with its own due time. Throws the first error.
    public func advance(to t: Double) throws {
        if let pendingError { throw pendingError }
        settle(before: t)
        if pendingError == nil { dispatcher.advance(to: t) }
        if let pendingError { throw pendingError }
    }

    /// How long, in input time after the last event, scheduled work may go on at the end of
    /// input: springs and tweens settle well within it; a delay that feeds itself never does.
    public static let settleHorizon = 60.0

    /// Advances input time through every action scheduled on the clock before `t`, one due
    /// time at a time, so that recognizers' time-based decisions (taps) and clock actions
    /// (delays, springs) interleave in time order rather than recognizers first.
    /// A source that never comes to rest (a delay feeding itself through Swift operators only)
    /// is stopped by the time limit, checked here since no Lua code runs to trip the hook.
    @inline(__always)
    private func settle(before t: Double) {
        // Usually nothing is due before the frame: no loop to set up (a daemon settles every
        // plugin for every frame).
        // (Through an unretained reference, whose owner is the dispatcher: it holds its clock
        // for the runtime's life.)
        guard pendingError == nil,
              Unretained(dispatcher.clock).with({ $0.hasActionDue(before: t) })
        else { return }
        settleDue(before: t)
    }

    @usableFromInline
    func settleDue(before t: Double) {
        var steps = 0
        while pendingError == nil, let next = dispatcher.clock.nextTime, next < t {
            dispatcher.advance(to: next)
            steps += 1
            if steps & 1023 == 0, isPastDeadline {
                fail(.timeout, "\(scriptPath): timeout: the script ran past its time limit (input time \(JSONText.number(time)) s)")
            }
            if steps & 1023 == 0, ms_interrupt_pending() != 0 || ms_state_stopped(mainState) != 0 {
                failStopped()
            }
        }
    }

    /// Records why the state was stopped where no Lua code ran to raise it (between clock steps).
    private func failStopped() {
        let at = "(input time \(JSONText.number(time)) s)"
        switch ms_state_stopped(mainState) {
        case MS_STOP_TIMEOUT: fail(.timeout, "\(scriptPath): timeout: the script ran past its time limit \(at)")
        case MS_STOP_HOST: fail(.runtime, "\(scriptPath): interrupted (\(stopReason ?? "stopped by the host")) \(at)")
        default: fail(.runtime, "\(scriptPath): interrupted \(at)")
        }
    }

    /// Why the host stopped this state (`interrupt(reason:)`), nil while it runs.
    public private(set) var stopReason: String?

    /// Stops this script only, for `reason` (a host decision: the plugin ran past its time,
    /// was disabled, or is being unloaded): from now on its Lua code raises "interrupted
    /// (REASON)" at every instruction, whatever pcall or coroutine it runs in, and the first
    /// error is recorded as a runtime error. Other runtimes run on. From the thread that runs
    /// Lua; for a watchdog thread use `limiter`. A signal (`Interruption`) still stops every state.
    public func interrupt(reason: String) {
        guard !isClosed else { return }
        if stopReason == nil { stopReason = reason }
        ms_state_interrupt(mainState, reason)
    }

    /// Whether this state was stopped (its time limit, `interrupt(reason:)`); a process-wide
    /// interruption is `Interruption`'s.
    public var isStopped: Bool { !isClosed && ms_state_stopped(mainState) != 0 }

    /// What another thread (a watchdog) holds to stop this state when its time is up; safe to
    /// use after the runtime closed (it does nothing then).
    public let limiter = LuaStateLimiter()

    /// The clock's drain runs Swift operators only (a delay feeding itself through properties):
    /// no Lua hook sees the time limit or an interruption there, so the clock asks, and a source
    /// that reschedules itself at one instant for ever stops with an error that names it.
    private func watchClock() {
        // Through the gate, not a weak reference: a weak reference gives the runtime a side
        // table, and every retain and release of it takes the slow path (two per frame per plugin).
        dispatcher.clock.shouldStop = { [gate] in gate.runtime?.clockShouldStop() ?? true }
        dispatcher.clock.onRunaway = { [gate] instant in
            guard let runtime = gate.runtime else { return }
            runtime.fail(.runtime, "\(runtime.scriptPath): scheduled work (delay, spring or tween) scheduled more than \(InputClock.maxActionsPerInstant) actions at input time \(JSONText.number(instant)) s without time moving on; stopped: does a delay(0) feed itself (p:delay(0):subscribe(p))?")
        }
    }

    private func clockShouldStop() -> Bool {
        if isPastDeadline {
            fail(.timeout, "\(scriptPath): timeout: the script ran past its time limit (input time \(JSONText.number(time)) s)")
            return true
        }
        if ms_interrupt_pending() != 0 || ms_state_stopped(mainState) != 0 {
            failStopped()
            return true
        }
        return false
    }

    /// Stops Lua code that runs past `seconds` from now (0 = no limit).
    public func setTimeout(_ seconds: Double) {
        setTimeout(seconds, now: seconds > 0 ? ms_monotonic() : 0)
    }

    /// `setTimeout` from `now` (CLOCK_MONOTONIC seconds) read by the caller: a live host arms
    /// the time limit for every frame, and one clock read serves it and the watchdog (a clock
    /// read is a system call where the clock source has no vDSO, as in a VM on HPET).
    public func setTimeout(_ seconds: Double, now: Double) {
        setDeadline(seconds > 0 ? now + seconds : 0)
    }

    /// Stops Lua code that runs past `deadline`, a time on the monotonic clock (`ms_monotonic`,
    /// `Clock.monotonic`; 0 = no limit): for a host that reads the clock once for several
    /// states (the daemon: one read per plugin call, the end of one call the start of the next).
    @inlinable  // a daemon sets one for every plugin call
    public func setDeadline(_ deadline: Double) {
        guard !isClosed else { return }
        ms_setdeadline(mainState, deadline > 0 ? deadline : 0)
    }

    /// Whether a watchdog's thread stops this state at each deadline set (`limiter.expire()` from
    /// a `Watchdog` armed for every call that has one): its Lua code then runs
    /// with no hook while within its limit, at full speed (Lua 5.4 traps every instruction while
    /// any hook is set), and the watchdog's signal stops it at its limit. Unwatched, a count hook
    /// checks the deadline every 10,000 instructions. Set on the thread that runs the state,
    /// between calls; false when the signal could not be installed.
    public var isWatched: Bool {
        get { !isClosed && ms_state_watched(mainState) != 0 }
        set {
            guard !isClosed, newValue != isWatched else { return }
            _ = ms_state_watch(mainState, newValue ? 1 : 0)
        }
    }

    /// Live input runs all day: when set, a callback that raises (or returns what cannot be used)
    /// is reported here, with its traceback, and switched off — its subscription is unsubscribed,
    /// a `map` or `filter` through it lets nothing more pass — and the run goes on. Time limits
    /// and memory errors still stop the script. Nil (files, scenarios): the first error stops it.
    public var onCallbackError: ((ScriptError) -> Void)?
    /// With `onCallbackError`: a callback that raised stays subscribed, and runs again with the
    /// next value (the daemon's policy: an error in a rare branch must not switch a binding off
    /// for the rest of the day; the host disables a plugin that keeps failing).
    public var keepsFailingCallbacks = false
    /// Callback errors reported through `onCallbackError` so far.
    public private(set) var callbackErrorCount = 0

    /// A callback raised: fatal, or reported and the callback switched off (`onCallbackError`).
    func callbackRaised(_ callback: LuaCallback, status: Int32, lua: Lua) {
        // A time limit or an interruption (a signal, a failed write) ends the run: not the callback's fault.
        guard let report = onCallbackError, status == LUA_ERRRUN, ms_state_stopped(mainState) == 0, ms_interruption() == 0 else {
            return reportLuaError(status: status, lua: lua)
        }
        callbackErrorCount += 1
        if !keepsFailingCallbacks { callback.disable() }
        report(ScriptError(.runtime, hinted(lua.string(at: -1) ?? "\(scriptPath): error object is not a string")))
        // The switched-off callback may be the one that would have let go of a key.
        actions.releaseAll(at: time, output: output)
    }

    /// Lets go of every key and button the script holds now (the host paused its gestures).
    public func releaseHeld() {
        actions.releaseAll(at: time, output: output)
    }

    /// A callback's result could not be used: fatal, or reported and the callback switched off.
    func callbackFailed(_ callback: LuaCallback, _ message: String) {
        guard let report = onCallbackError else { return fail(.runtime, message) }
        callbackErrorCount += 1
        if !keepsFailingCallbacks { callback.disable() }
        report(ScriptError(.runtime, message))
        actions.releaseAll(at: time, output: output)
    }

    /// Records the first error; later ones are consequences and are dropped.
    public func fail(_ kind: ScriptError.Kind, _ message: String) {
        if pendingError == nil { pendingError = ScriptError(kind, message) }
    }

    func takePendingError() -> ScriptError? {
        guard let error = pendingError else { return nil }
        pendingError = nil
        return error
    }

    /// Records the error a pcall left on top of the stack.
    func reportLuaError(status: Int32, lua: Lua) {
        if ms_timedout(mainState) != 0 {
            fail(.timeout, lua.string(at: -1) ?? "\(scriptPath): timeout: the script ran past its time limit")
        } else if status != LUA_ERRMEM, let message = lua.string(at: -1), message.contains("not enough memory") {
            // Raised at the script's line when Swift's allocations for it went over the limit.
            fail(.memory, message)
        } else if status == LUA_ERRMEM {
            let limit = ms_memorylimit(mainState)
            fail(.memory, "\(scriptPath): not enough memory" + (limit > 0 ? " (the Lua memory limit is \(limit) bytes)" : ""))
        } else {
            fail(.runtime, hinted(lua.string(at: -1) ?? "\(scriptPath): error object is not a string"))
        }
    }

    /// The message with "did you mean" when it is about a misspelt API name (`NameHints`).
    func hinted(_ message: String) -> String {
        NameHints.hinted(message) { NameHints.motionNames(mainState) }
    }

    /// Keeps a subscription alive until it is unsubscribed or the runtime closes, whether or
    /// not the script keeps a reference to it.
    /// The Swift memory one kept subscription holds (the subscription, its closures, the
    /// listener entries and a callback), roughly: charged to the memory count while kept.
    static let subscriptionCost: Int64 = 512

    func keep(_ subscription: Subscription) {
        subscriptionsMade += 1
        subscriptions[ObjectIdentifier(subscription)] = (subscriptionsMade, subscription)
        ms_charge(mainState, Self.subscriptionCost)
    }

    func forget(_ subscription: Subscription) {
        guard !isClosed, subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return }
        ms_charge(mainState, -Self.subscriptionCost)
    }

    func makeCallback(at index: Int32, place: String) -> LuaCallback {
        let L = activeState ?? mainState
        lua_pushvalue(L, index)
        let ref = luaL_ref(L, ms_registryindex())
        return LuaCallback(ref: ref, runtime: self, place: place)
    }

    func releaseReference(_ ref: Int32) {
        guard let L = callState else { return }
        luaL_unref(L, ms_registryindex(), ref)
    }

    /// The current values of the properties made with `{keep = name}`, by name: what the next
    /// version of the script inherits. Still answers after `close()` (values at close).
    public var keptValues: [String: MotionValue] {
        isClosed ? keptAtClose : keptProperties.mapValues { $0.property.read() }
    }

    /// Lua files `require` found for this script, in load order (the files to watch besides
    /// the script). Includes modules that failed to load, so fixing one triggers a reload.
    public var requiredFiles: [String] {
        isClosed ? requiredAtClose : RequireTracking.files(in: Lua(mainState))
    }

    /// Ends the script: from the first step on, bindings refuse calls (finalizers run by
    /// lua_close among them), callbacks do not run and nothing is emitted; then the Lua state
    /// closes, releasing every Swift object it held. Idempotent.
    ///
    /// Subscriptions are undone newest first: a source's newest listener is its last, which
    /// a listener list removes at once, so tearing down many subscriptions to one source is
    /// near-linear rather than quadratic in their number.
    ///
    /// `at`: the input time the script ends, when that is later than the last it saw (a live
    /// reload or unload between frames): what it held is released then, and its lines say so.
    public func close(at end: Double? = nil) {
        guard !isClosed else { return }
        actions.releaseAll(at: max(time, end ?? time), output: output)
        keptAtClose = keptValues
        requiredAtClose = requiredFiles
        isClosed = true
        limiter.detach()
        ms_setowner(mainState, nil)
        keptProperties.removeAll()
        let kept = subscriptions.values.sorted { $0.order > $1.order }
        subscriptions.removeAll()
        for entry in kept { entry.subscription.unsubscribe() }
        deadlineSlot = Self.noDeadline
        ms_closestate(mainState)
        bindings.removeAll()
    }
}
