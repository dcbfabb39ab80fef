import CLua
import CLuaShim
import MotionStreams

/// A Swift function callable from Lua. It never raises: it returns the number of results
/// it pushed, or throws, and the dispatcher turns the throw into a Lua error raised by the C
/// trampoline after every Swift frame has returned. Bindings capture nothing (they are static
/// functions or closures over constants), so they can live in immutable, shareable tables.
public typealias LuaBinding = @Sendable (LuaCall) throws -> Int32

/// One binding: its Lua name (for messages) and its body. A plain value: the method tables
/// built from these are immutable `let`s, safe to share between the threads that each run
/// their own runtime.
struct Binding: Sendable {
    let name: String
    let body: LuaBinding
}

/// How Lua reaches a binding. Each runtime keeps the bindings it pushed in its own list
/// (`LuaRuntime.bindings`); a Lua closure holds its binding's index in that list, and the
/// entry finds the runtime through the lua_State's owner pointer. Nothing is shared between
/// runtimes, so there is no global mutable state and nothing to lock.
enum BindingTable {
    static func register(_ name: String, _ body: @escaping LuaBinding) -> Binding {
        Binding(name: name, body: body)
    }

    /// Pushes a Lua function that calls `binding`. With `withUpvalue`, the value on top
    /// of the stack becomes upvalue 3 (e.g. a methods table for an `__index` function).
    static func push(_ binding: Binding, on lua: Lua, withUpvalue: Bool = false) {
        let runtime = LuaRuntime.owner(of: lua.L)!
        runtime.bindings.append(binding)
        lua_pushinteger(lua.L, lua_Integer(runtime.bindings.count - 1))
        if withUpvalue { lua_rotate(lua.L, -2, 1) }
        ms_pushswiftclosure(lua.L, bindingEntry, withUpvalue ? 2 : 1)
    }

    /// Pushes a table of the given named bindings.
    static func pushTable(_ methods: [(String, Binding)], on lua: Lua) {
        lua.newTable(recordCount: Int32(methods.count))
        for (name, binding) in methods {
            push(binding, on: lua)
            lua.setField(name, in: -2)
        }
    }
}

/// The one C-callable entry of all bindings: upvalue 2 is the binding's index in the
/// runtime's list. Once the runtime has begun closing (its owner pointer is cleared), every
/// binding refuses: finalizers run by lua_close must not reach a runtime being torn down.
private let bindingEntry: ms_SwiftFunction = { state in
    guard let L = state else { return 0 }
    let lua = Lua(L)
    guard let runtime = LuaRuntime.owner(of: L) else {
        lua.push(lua.whereString(level: 1) + "the script has ended: motion functions cannot be called any more")
        return MS_RAISE
    }
    let index = Int(lua_tointegerx(L, ms_upvalueindex(2), nil))
    guard index >= 0, index < runtime.bindings.count else { return 0 }
    let binding = runtime.bindings[index]
    let saved = runtime.activeState
    runtime.activeState = L
    defer { runtime.activeState = saved }
    do {
        let results = try binding.body(LuaCall(lua: lua, runtime: runtime, name: binding.name))
        // A callback run by this binding raised: carry its error into the calling script,
        // which now owns it (a `pcall` there may handle it).
        if let error = runtime.takePendingError() {
            lua.push(error.message)
            return MS_RAISE
        }
        return results
    } catch let error as OptionError {
        lua.push(lua.whereString(level: 1) + "\(binding.name): \(error)")
        return MS_RAISE
    } catch let error as LuaBindingError {
        lua.push(lua.whereString(level: 1) + error.message)
        return MS_RAISE
    } catch {
        lua.push(lua.whereString(level: 1) + "\(error)")
        return MS_RAISE
    }
}
