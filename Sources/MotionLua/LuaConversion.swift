import CLua
import CLuaShim
import MotionGestures
import MotionStreams

/// Moves values between Lua and Swift. Points are Lua tables `{x=, y=}`; gesture values are
/// userdata holding the snapshot struct itself (no Swift object, so no `__gc`).
enum LuaConversion {
    static let gestureMetatable = "motion.Gesture"
    private static let maxDepth = 64

    static func push(_ value: MotionValue, on lua: Lua) {
        switch value {
        case .null: lua.pushNil()
        case .bool(let b): lua.push(b)
        case .number(let n): lua.push(n)
        case .string(let s): lua.push(s)
        case .point(let p): pushPoint(p, on: lua)
        case .gesture(let g): pushGesture(g, on: lua)
        case .array(let items):
            lua.newTable(arrayCount: Int32(items.count))
            for (i, item) in items.enumerated() {
                push(item, on: lua)
                lua_rawseti(lua.L, -2, lua_Integer(i + 1))
            }
        case .object(let fields):
            lua.newTable(recordCount: Int32(fields.count))
            for field in fields {
                push(field.value, on: lua)
                lua.setField(field.key, in: -2)
            }
        }
    }

    static func pushPoint(_ p: Point, on lua: Lua) {
        lua.newTable(recordCount: 2)
        lua.push(p.x)
        lua.setField("x", in: -2)
        lua.push(p.y)
        lua.setField("y", in: -2)
    }

    static func pushGesture(_ g: GestureValue, on lua: Lua) {
        let block = ms_newuserdata(lua.L, MemoryLayout<GestureValue>.size)!
        block.initializeMemory(as: GestureValue.self, repeating: g, count: 1)
        luaL_setmetatable(lua.L, gestureMetatable)
    }

    static func gesture(_ lua: Lua, at index: Int32) -> GestureValue? {
        guard let block = luaL_testudata(lua.L, index, gestureMetatable) else { return nil }
        return block.load(as: GestureValue.self)
    }

    /// The Lua value at `index` as a MotionValue; throws for functions, threads and
    /// userdata that are not gesture values, and for tables nested too deep (cycles).
    static func value(_ lua: Lua, at index: Int32, depth: Int = 0) throws -> MotionValue {
        switch lua.type(at: index) {
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TBOOLEAN: return .bool(lua.bool(at: index)!)
        case LUA_TNUMBER: return .number(lua.number(at: index)!)
        case LUA_TSTRING: return .string(lua.string(at: index)!)
        case LUA_TTABLE: return try table(lua, at: lua.absoluteIndex(index), depth: depth)
        case LUA_TUSERDATA:
            if let g = gesture(lua, at: index) { return .gesture(g) }
            throw LuaBindingError("a \(lua.typeName(at: index)), which is not a value a stream can carry")
        default:
            throw LuaBindingError("a \(lua.typeName(at: index)), which is not a value a stream can carry")
        }
    }

    private static func table(_ lua: Lua, at index: Int32, depth: Int) throws -> MotionValue {
        guard depth < maxDepth else { throw LuaBindingError("a table nested more than \(maxDepth) deep (a cycle?)") }
        var integerKeys: [(Int, MotionValue)] = []
        var stringKeys: [(key: String, value: MotionValue)] = []
        lua.pushNil()
        while lua_next(lua.L, index) != 0 {
            let value = try { () throws -> MotionValue in
                defer { lua.pop() }
                return try self.value(lua, at: -1, depth: depth + 1)
            }()
            if let i = lua.integer(at: -1) {
                integerKeys.append((i, value))
            } else if let key = lua.string(at: -1) {
                stringKeys.append((key, value))
            } else {
                lua.pop()
                throw LuaBindingError("a table with a \(lua.typeName(at: -1)) key (only strings and integers can be output)")
            }
        }
        if stringKeys.isEmpty {
            integerKeys.sort { $0.0 < $1.0 }
            if integerKeys.enumerated().allSatisfy({ $0.offset + 1 == $0.element.0 }) {
                return .array(integerKeys.map { $0.1 })
            }
        }
        if integerKeys.isEmpty, stringKeys.count == 2 {
            let x = stringKeys.first { $0.key == "x" }?.value.number
            let y = stringKeys.first { $0.key == "y" }?.value.number
            if let x, let y { return .point(Point(x: x, y: y)) }
        }
        var fields = stringKeys
        fields.append(contentsOf: integerKeys.map { (key: String($0.0), value: $0.1) })
        fields.sort { $0.key < $1.key }
        return .object(fields)
    }
}
