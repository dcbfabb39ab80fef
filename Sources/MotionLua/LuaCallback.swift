import CLua
import CLuaShim

/// A Lua function held by Swift (a `map`, `filter` or `subscribe` callback). The function
/// stays in the registry while the callback lives; errors it raises are reported to the
/// runtime with the script's `file:line` and traceback, never thrown through Swift.
public final class LuaCallback {
    let ref: Int32
    weak var runtime: LuaRuntime?
    /// Where the callback was passed in, for messages about its results.
    let place: String
    /// Set once the callback raised in a runtime that goes on after callback errors (live
    /// input): it is never called again, so nothing flows through it any more.
    public private(set) var isDisabled = false
    /// Called once when the callback is disabled (a subscription's own callback unsubscribes it).
    var onDisabled: (() -> Void)?

    init(ref: Int32, runtime: LuaRuntime, place: String) {
        self.ref = ref
        self.runtime = runtime
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
        invoke(argument) { lua, runtime in
            do {
                return try LuaConversion.value(lua, at: -1)
            } catch let error as LuaBindingError {
                runtime.callbackFailed(self, "\(place) callback returned \(error.message)")
            } catch {
                runtime.callbackFailed(self, "\(place) \(error)")
            }
            return nil
        } ?? nil
    }

    /// Calls the function for its effect (`subscribe`): its results are dropped by Lua itself,
    /// so none is read back into Swift.
    public func run(_ argument: MotionValue) {
        _ = invoke(argument, results: 0) { _, _ in () }
    }

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
        invoke(argument) { lua, _ in lua_toboolean(lua.L, -1) != 0 } ?? false
    }

    /// Runs the function under pcall with a traceback handler and hands its result (on top of
    /// the stack) to `read`; nil when it could not run or raised.
    private func invoke<R>(_ argument: MotionValue, results: Int32 = 1, _ read: (Lua, LuaRuntime) -> R) -> R? {
        guard !isDisabled, let runtime, runtime.pendingError == nil, let L = runtime.callState,
              runtime.hasStackLeft(place) else { return nil }
        let lua = Lua(L)
        let base = lua.top
        defer { lua.top = base }
        guard lua.checkStack(3) else {
            runtime.fail(.runtime, "\(place) callback: Lua's stack is full (callbacks nested too deep)")
            return nil
        }
        ms_pushcfunction(L, ms_traceback)
        lua_rawgeti(L, ms_registryindex(), lua_Integer(ref))
        do {
            try LuaConversion.push(argument, on: lua, keys: runtime.keys)
        } catch let error as LuaBindingError {
            runtime.fail(.runtime, "\(place) callback argument: \(error.message)")
            return nil
        } catch {
            return nil
        }
        let status = ms_pcalllua(L, 1, results, base + 1)
        guard status == LUA_OK else {
            runtime.callbackRaised(self, status: status, lua: lua)
            return nil
        }
        return read(lua, runtime)
    }
}
