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
    static func push(_ object: AnyObject, _ type: LuaObjectType, on lua: Lua) {
        let block = ms_newuserdata(lua.L, MemoryLayout<UnsafeMutableRawPointer?>.size)!
        block.storeBytes(of: Unmanaged.passRetained(object).toOpaque(), as: UnsafeMutableRawPointer?.self)
        luaL_setmetatable(lua.L, type.rawValue)
    }

    static func get<T: AnyObject>(_ lua: Lua, at index: Int32, _ type: LuaObjectType) -> T? {
        guard let block = luaL_testudata(lua.L, index, type.rawValue),
              let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
    }

    /// Pushes the `__gc` function shared by every object type. It touches nothing but the
    /// block, so it is safe while the runtime itself is being torn down.
    static func pushCollector(on lua: Lua) {
        ms_pushswiftclosure(lua.L, collectEntry, 0)
    }
}

private let collectEntry: ms_SwiftFunction = { state in
    guard let L = state, let block = lua_touserdata(L, 1),
          let pointer = block.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
    block.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
    return 0
}
