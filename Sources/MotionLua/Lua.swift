import CLua
import CLuaShim

/// A non-owning view of a lua_State with the few operations the bindings need. Every method
/// here is one that cannot raise a Lua error (except on allocation failure, which the capped
/// allocator never reports while Swift runs), so no longjmp can cross Swift frames.
public struct Lua {
    public let L: OpaquePointer

    public init(_ L: OpaquePointer) { self.L = L }

    public var top: Int32 {
        get { lua_gettop(L) }
        nonmutating set { lua_settop(L, newValue) }
    }

    public func pop(_ n: Int32 = 1) { ms_pop(L, n) }
    public func type(at index: Int32) -> Int32 { lua_type(L, index) }
    public func typeName(at index: Int32) -> String { String(cString: ms_typename_at(L, index)) }
    public func isNoneOrNil(_ index: Int32) -> Bool { ms_isnoneornil(L, index) != 0 }
    public func isFunction(_ index: Int32) -> Bool { ms_isfunction(L, index) != 0 }
    public func isTable(_ index: Int32) -> Bool { ms_istable(L, index) != 0 }

    public func number(at index: Int32) -> Double? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(L, index, nil)
    }

    public func integer(at index: Int32) -> Int? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var isInteger: Int32 = 0
        let value = lua_tointegerx(L, index, &isInteger)
        return isInteger != 0 ? Int(value) : nil
    }

    public func bool(at index: Int32) -> Bool? {
        guard lua_type(L, index) == LUA_TBOOLEAN else { return nil }
        return lua_toboolean(L, index) != 0
    }

    /// Only for values that are strings already (lua_tolstring converts numbers in place).
    public func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING, let chars = ms_tostring(L, index) else { return nil }
        return String(cString: chars)
    }

    public func push(_ value: Double) { lua_pushnumber(L, value) }
    public func push(_ value: Int) { lua_pushinteger(L, lua_Integer(value)) }
    public func push(_ value: Bool) { lua_pushboolean(L, value ? 1 : 0) }
    public func push(_ value: String) { _ = lua_pushstring(L, value) }
    public func pushNil() { lua_pushnil(L) }
    public func pushValue(at index: Int32) { lua_pushvalue(L, index) }

    public func newTable(arrayCount: Int32 = 0, recordCount: Int32 = 0) {
        lua_createtable(L, arrayCount, recordCount)
    }

    /// t[key] = top of stack, raw (no metamethods), for the table at `table`.
    public func setField(_ key: String, in table: Int32) {
        let absolute = lua_absindex(L, table)
        _ = lua_pushstring(L, key)
        lua_rotate(L, -2, 1)
        lua_rawset(L, absolute)
    }

    /// Pushes t[key], raw, for the table at `table`; returns its Lua type.
    @discardableResult
    public func getField(_ key: String, in table: Int32) -> Int32 {
        let absolute = lua_absindex(L, table)
        _ = lua_pushstring(L, key)
        return lua_rawget(L, absolute)
    }

    public func absoluteIndex(_ index: Int32) -> Int32 { lua_absindex(L, index) }

    /// "file:line:" of the Lua function `level` levels up the call stack ("" if none).
    public func whereString(level: Int32 = 1) -> String {
        luaL_where(L, level)
        defer { pop() }
        return string(at: -1) ?? ""
    }
}
