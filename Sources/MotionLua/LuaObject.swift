import CLua
import CLuaShim

/// The Swift types Lua holds, each with one metatable registered once per state.
public enum LuaObjectType: String, CaseIterable {
    case stream = "motion.Stream"
    case property = "motion.Property"
    case recognizer = "motion.Recognizer"
    case subscription = "motion.Subscription"
    case element = "motion.Element"

    var displayName: String {
        switch self {
        case .stream: return "stream"
        case .property: return "property"
        case .recognizer: return "recognizer"
        case .subscription: return "subscription"
        case .element: return "element"
        }
    }
}

/// Swift objects in Lua userdata: the block holds one retained reference, released by
/// `__gc` (or by lua_close), so Lua's collector decides the Swift object's lifetime.
enum LuaObject {
    /// What the Swift side of one object (the object, its closures and operator state) takes,
    /// roughly (measured: about 550 bytes for a stream made by an operator): charged to the
    /// state's memory count while Lua holds the object, so the memory cap covers it.
    static let swiftCost: Int64 = 512

    static func push(_ object: AnyObject, _ type: LuaObjectType, on lua: Lua) {
        let block = ms_newuserdata(lua.L, MemoryLayout<UnsafeMutableRawPointer?>.size)!
        block.storeBytes(of: Unmanaged.passRetained(object).toOpaque(), as: UnsafeMutableRawPointer?.self)
        luaL_setmetatable(lua.L, type.rawValue)
        ms_charge(lua.L, swiftCost)
        if type == .stream, let stream = object as? LuaStream, let runtime = LuaRuntime.owner(of: lua.L), runtime.inSetup,
           lua_checkstack(lua.L, 2) != 0 {
            runtime.streamsMadeInSetup.append((stream, lua.whereString(level: 1)))
        }
    }

    static func get<T: AnyObject>(_ lua: Lua, at index: Int32, _ type: LuaObjectType) -> T? {
        guard let block = luaL_testudata(lua.L, index, type.rawValue),
              let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
    }

    /// Pushes the `__gc` function of `type`'s metatable. It touches nothing but the block, so
    /// it is safe while the runtime itself is being torn down; and only a block of its own type
    /// (upvalue 2 names it): a script can call `getmetatable(x).__gc(y)` with any `y`.
    static func pushCollector(for type: LuaObjectType, on lua: Lua) {
        lua.push(type.rawValue)
        ms_pushswiftclosure(lua.L, collectEntry, 1)
    }
}

private let collectEntry: ms_SwiftFunction = { state in
    guard let L = state, let name = lua_tolstring(L, ms_upvalueindex(2), nil) else { return 0 }
    guard let block = luaL_testudata(L, 1, name) else {
        let lua = Lua(L)
        lua.push(lua.whereString(level: 1) + "bad argument #1 to '__gc' (\(String(cString: name)) expected, got \(lua.typeName(at: 1)))")
        return MS_RAISE
    }
    // Collected already (a second explicit call): the reference was released the first time.
    guard let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
    block.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    ms_charge(L, -LuaObject.swiftCost)
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
    return 0
}
