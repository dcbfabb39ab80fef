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

    /// Lua integers only (not floats with integral values).
    public func luaInteger(at index: Int32) -> Int? {
        guard lua_type(L, index) == LUA_TNUMBER, lua_isinteger(L, index) != 0 else { return nil }
        return Int(lua_tointegerx(L, index, nil))
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
    /// The whole string, by its length: a NUL byte is data. Bytes that are not UTF-8 become
    /// U+FFFD (Swift's decoding), so every String made from Lua is valid UTF-8 and so is
    /// every output line.
    public func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = lua_tolstring(L, index, &length) else { return nil }
        return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// The length in bytes of the string at `index` (0 for other values).
    public func stringLength(at index: Int32) -> Int {
        lua_type(L, index) == LUA_TSTRING ? Int(lua_rawlen(L, index)) : 0
    }

    /// Makes room for `n` more values on the stack; false when Lua cannot (its stack limit, or
    /// memory). Never raises. Call it before pushing anything whose amount a script decides.
    public func checkStack(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }

    public func push(_ value: Double) { lua_pushnumber(L, value) }
    public func push(_ value: Int) { lua_pushinteger(L, lua_Integer(value)) }
    public func push(_ value: Bool) { lua_pushboolean(L, value ? 1 : 0) }
    /// By length: a NUL byte inside `value` is kept.
    public func push(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }
    /// A key spelled in the source: straight from its bytes, no Swift String made on the way
    /// (Lua interns short strings, so the same key is one Lua string however often it is pushed).
    public func push(key: StaticString) {
        key.withUTF8Buffer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    public func pushNil() { lua_pushnil(L) }
    public func pushValue(at index: Int32) { lua_pushvalue(L, index) }

    public func newTable(arrayCount: Int32 = 0, recordCount: Int32 = 0) {
        lua_createtable(L, arrayCount, recordCount)
    }

    /// t[key] = top of stack, raw (no metamethods), for the table at `table`.
    public func setField(_ key: String, in table: Int32) {
        let absolute = lua_absindex(L, table)
        push(key)
        lua_rotate(L, -2, 1)
        lua_rawset(L, absolute)
    }

    /// Pushes t[key], raw, for the table at `table`; returns its Lua type.
    @discardableResult
    public func getField(_ key: String, in table: Int32) -> Int32 {
        let absolute = lua_absindex(L, table)
        push(key)
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
