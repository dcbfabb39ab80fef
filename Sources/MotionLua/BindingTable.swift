import CLua
import CLuaShim
import MotionStreams

/// A Swift function callable from Lua. It never raises: it returns the number of results
/// it pushed, or throws, and the dispatcher turns the throw into a Lua error raised by the C
/// trampoline after every Swift frame has returned.
public typealias LuaBinding = (LuaCall) throws -> Int32

/// Every binding, registered once per process; a Lua closure refers to one by index.
enum BindingTable {
    nonisolated(unsafe) static var bindings: [(name: String, body: LuaBinding)] = []

    static func register(_ name: String, _ body: @escaping LuaBinding) -> Int {
        bindings.append((name, body))
        return bindings.count - 1
    }

    /// Pushes a Lua function that calls binding `index`. With `withUpvalue`, the value on top
    /// of the stack becomes upvalue 3 (e.g. a methods table for an `__index` function).
    static func push(_ index: Int, on lua: Lua, withUpvalue: Bool = false) {
        lua_pushinteger(lua.L, lua_Integer(index))
        if withUpvalue { lua_rotate(lua.L, -2, 1) }
        ms_pushswiftclosure(lua.L, bindingEntry, withUpvalue ? 2 : 1)
    }

    /// Pushes a table of the given named bindings.
    static func pushTable(_ methods: [(String, Int)], on lua: Lua) {
        lua.newTable(recordCount: Int32(methods.count))
        for (name, index) in methods {
            push(index, on: lua)
            lua.setField(name, in: -2)
        }
    }
}

/// The one C-callable entry of all bindings: upvalue 2 is the binding's index.
private let bindingEntry: ms_SwiftFunction = { state in
    guard let L = state else { return 0 }
    let index = Int(lua_tointegerx(L, ms_upvalueindex(2), nil))
    let runtime = LuaRuntime.owner(of: L)
    let (name, body) = BindingTable.bindings[index]
    let lua = Lua(L)
    let saved = runtime.activeState
    runtime.activeState = L
    defer { runtime.activeState = saved }
    do {
        let results = try body(LuaCall(lua: lua, runtime: runtime, name: name))
        // A callback run by this binding raised: carry its error into the calling script,
        // which now owns it (a `pcall` there may handle it).
        if let error = runtime.takePendingError() {
            lua.push(error.message)
            return MS_RAISE
        }
        return results
    } catch let error as OptionError {
        lua.push(lua.whereString(level: 1) + "\(name): \(error)")
        return MS_RAISE
    } catch let error as LuaBindingError {
        lua.push(lua.whereString(level: 1) + error.message)
        return MS_RAISE
    } catch {
        lua.push(lua.whereString(level: 1) + "\(error)")
        return MS_RAISE
    }
}
