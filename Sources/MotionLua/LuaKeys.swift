import CLua
import CLuaShim

/// The strings the per-event bridge pushes (table keys, phase names), made into Lua strings
/// once per state and held in the registry: pushing one is an array read there, where pushing
/// its bytes would hash them and look the string up every time.
struct LuaKeys {
    enum Key: Int, CaseIterable {
        case id, phase, x, y, down, move, up, cancel

        var spelling: StaticString {
            switch self {
            case .id: "id"
            case .phase: "phase"
            case .x: "x"
            case .y: "y"
            case .down: "down"
            case .move: "move"
            case .up: "up"
            case .cancel: "cancel"
            }
        }
    }

    /// Registry references, by `Key.rawValue`; they live as long as the state.
    private let refs: [lua_Integer]

    /// Called while the state is new (Swift is creating it, so the memory limit does not
    /// apply and nothing here can fail short of the process running out of memory).
    init(on lua: Lua) {
        refs = Key.allCases.map { key in
            lua.push(key: key.spelling)
            return lua_Integer(luaL_ref(lua.L, ms_registryindex()))
        }
    }

    /// Pushes the string; one stack slot.
    func push(_ key: Key, on lua: Lua) {
        lua_rawgeti(lua.L, ms_registryindex(), refs[key.rawValue])
    }

    static func push(_ key: Key, _ keys: LuaKeys?, on lua: Lua) {
        if let keys { keys.push(key, on: lua) } else { lua.push(key: key.spelling) }
    }

    /// t[key] = top of stack, raw, for the table at absolute index `table`; pops the value.
    /// The key goes below the value on the stack, so nothing is rotated.
    static func set(_ key: Key, _ keys: LuaKeys?, inTableAt table: Int32, on lua: Lua, value push: () -> Void) {
        Self.push(key, keys, on: lua)
        push()
        lua_rawset(lua.L, table)
    }
}
