import CLua
import CLuaShim
import MotionGestures
import MotionStreams

/// A Lua function held by Swift (a `map`, `filter` or `subscribe` callback). The function
/// stays in the registry while the callback lives; errors it raises are reported to the
/// runtime with the script's `file:line` and traceback, never thrown through Swift.
public final class LuaCallback {
    let ref: Int32
    /// The runtime's state as callbacks may use it now: read on every call.
    private let gate: LuaCallGate
    var runtime: LuaRuntime? { gate.runtime }
    /// The runtime's tables for `p.device` (they hold no callback, so no cycle).
    private let deviceTables: DeviceTables
    /// Where the callback was passed in, for messages about its results.
    let place: String
    /// Set once the callback raised in a runtime that goes on after callback errors (live
    /// input): it is never called again, so nothing flows through it any more.
    public private(set) var isDisabled = false
    /// Called once when the callback is disabled (a subscription's own callback unsubscribes it).
    var onDisabled: (() -> Void)?

    init(ref: Int32, runtime: LuaRuntime, place: String) {
        self.ref = ref
        gate = runtime.gate
        deviceTables = runtime.deviceTables
        self.place = place
        runtime.liveCallbacks += 1
    }

    deinit {
        runtime?.liveCallbacks -= 1
        runtime?.releaseReference(ref)
    }

    /// Calls the function with one argument; returns its first result, or nil if it raised
    /// (the runtime then holds the error).
    public func call(_ argument: MotionValue) -> MotionValue? {
        var result: MotionValue?
        map(argument) { result = $0 }
        return result
    }

    /// Calls the function with one argument and hands its first result to `next`, once Lua's
    /// stack is back as it was; nothing when it raised (the runtime then holds the error).
    public func map(_ argument: MotionValue, _ next: (MotionValue) -> Void) {
        var x = 0.0, y = 0.0
        var other: MotionValue?
        let isPoint = invoke(argument) { lua -> Bool in
            // `{x = number, y = number}`, what a `map` per event returns: read in one C call.
            // Its size is fixed, so it needs none of the general reader's bounds.
            if ms_topoint(lua.L, -1, &x, &y) != 0 { return true }
            do {
                other = try LuaConversion.value(lua, at: -1)
            } catch let error as LuaBindingError {
                runtime?.callbackFailed(self, "\(place) callback returned \(error.message)")
            } catch {
                runtime?.callbackFailed(self, "\(place) \(error)")
            }
            return false
        } ?? false
        if isPoint {
            next(.point(Point(x: x, y: y)))
        } else if let other {
            next(other)
        }
    }

    /// Calls the function for its effect (`subscribe`): its results are dropped by Lua itself,
    /// so none is read back into Swift.
    public func run(_ argument: MotionValue) {
        _ = invoke(argument, results: 0) { _ in () }
    }

    /// `run` with a raw pointer event (`motion.pointers():subscribe(f)`): the same table and
    /// call, without the event going through a MotionValue first. Once a frame per live
    /// pointer, so it is one C call when the callback returns normally: the C side restores
    /// Lua's stack itself, and the device tables are held here, not reached through the runtime.
    func run(pointer e: PointerEvent) {
        guard !isDisabled, let L = gate.state else { return }
        guard ms_stacklow(LuaRuntime.stackReserve) == 0 else {
            _ = runtime?.hasStackLeft(place)
            return
        }
        guard let device = deviceTables.refs(of: e, in: L) else { return runSlowly(e) }
        var top: Int32 = 0
        let status = ms_runpointer(L, ref, Int64(e.id), LuaConversion.phaseKey(e.phase), e.x, e.y,
                                   device.key, device.table, &top)
        if status == LUA_OK { return }
        guard status != MS_CALL_NOSTACK else { return stackFull() }
        _ = finish(status, Lua(L), top) { _ in () }
    }

    /// `run(pointer:)` when the device's table cannot be made now: the event goes the general way.
    @inline(never)
    private func runSlowly(_ e: PointerEvent) { run(.pointerEvent(e)) }

    /// Switches the callback off for good (see `isDisabled`).
    func disable() {
        guard !isDisabled else { return }
        isDisabled = true
        let action = onDisabled
        onDisabled = nil
        action?()
    }

    /// Calls the function for its truth value (`filter`): Lua truthiness, false on error.
    public func test(_ argument: MotionValue) -> Bool {
        invoke(argument) { lua in lua_toboolean(lua.L, -1) != 0 } ?? false
    }

    /// Runs the function under pcall with a traceback handler and hands its result (on top of
    /// the stack) to `read`; nil when it could not run or raised. A pointer event, the value
    /// of every input event, goes in through one C call that builds its table from interned
    /// keys and calls (`ms_callpointer`); other values are pushed from Swift.
    private func invoke<R>(_ argument: MotionValue, results: Int32 = 1, _ read: (Lua) -> R) -> R? {
        guard !isDisabled, let L = gate.state, hasStackLeft() else { return nil }
        let lua = Lua(L)
        var top: Int32 = 0
        let status: Int32
        if case .pointerEvent(let e) = argument, let device = Self.deviceRefs(e, runtime, L) {
            status = ms_callpointerfrom(L, ref, Int64(e.id), LuaConversion.phaseKey(e.phase), e.x, e.y,
                                        device.key, device.table, results, &top)
            guard status != MS_CALL_NOSTACK else {
                stackFull()
                return nil
            }
        } else {
            top = ms_callprepare(L, ref, 3)
            guard top >= 0 else {
                stackFull()
                return nil
            }
            do {
                try LuaConversion.push(argument, on: lua)
            } catch let error as LuaBindingError {
                lua.top = top
                runtime?.fail(.runtime, "\(place) callback argument: \(error.message)")
                return nil
            } catch {
                lua.top = top
                return nil
            }
            status = ms_pcalllua(L, 1, results, top + 1)
        }
        return finish(status, lua, top, read)
    }

    /// The `device` key and table for `e` (both LUA_NOREF for a pointer from a file); nil when
    /// they cannot be made now (the event is then pushed the slow way).
    private static func deviceRefs(_ e: PointerEvent, _ runtime: LuaRuntime?, _ L: OpaquePointer) -> (key: Int32, table: Int32)? {
        guard let tag = e.device else { return (LUA_NOREF, LUA_NOREF) }
        return runtime?.deviceTables.refs(for: tag, in: L)
    }

    /// After the call: its result read (or its error reported), then Lua's stack back to `top`.
    private func finish<R>(_ status: Int32, _ lua: Lua, _ top: Int32, _ read: (Lua) -> R) -> R? {
        defer { lua.top = top }
        guard status == LUA_OK else {
            runtime?.callbackRaised(self, status: status, lua: lua)
            return nil
        }
        return read(lua)
    }

    /// False, with the error recorded, when the native stack is too low to go deeper.
    private func hasStackLeft() -> Bool {
        if ms_stacklow(LuaRuntime.stackReserve) == 0 { return true }
        _ = runtime?.hasStackLeft(place)
        return false
    }

    private func stackFull() {
        runtime?.fail(.runtime, "\(place) callback: Lua's stack is full (callbacks nested too deep)")
    }
}

/// The lua_State callbacks run on now (the running binding's, else the main state), or nil
/// once the runtime has closed or holds an error: nothing more may run then. The runtime
/// keeps it current; callbacks hold it strongly (it holds nothing).
///
/// It is also how everything the runtime's objects hold (callbacks, operators, sources) reaches
/// the runtime: `runtime` answers as a weak reference would, until the runtime is gone. A weak
/// reference would give the runtime a side table, and every retain and release of it (each
/// binding call makes some) would take the slow path.
final class LuaCallGate {
    var state: OpaquePointer?
    /// False once the runtime has begun closing.
    var isOpen = true
    /// Set by the runtime once it is made, cleared at the end of its deinit.
    unowned(unsafe) var owner: LuaRuntime?

    init(state: OpaquePointer) { self.state = state }

    /// The runtime, nil once it has been deinitialized.
    var runtime: LuaRuntime? { owner }
}
