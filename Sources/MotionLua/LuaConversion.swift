import CLua
import CLuaShim
import MotionGestures
import MotionJSON
import MotionStreams

/// Moves values between Lua and Swift. Points are Lua tables `{x=, y=}`; gesture values are
/// userdata holding the snapshot struct itself (no Swift object, so no `__gc`).
///
/// Whatever a script hands over is read within bounds: tables at most `maxDepth` deep, no
/// table inside itself, at most `maxParts` values in all (a table shared by many fields counts
/// each time, so a small table of shared subtables cannot expand into billions of values), the
/// Swift copy within the state's memory limit, and stack space checked before every push.
/// Anything beyond is a Lua error at the script's line, never a crash or a hang.
enum LuaConversion {
    static let gestureMetatable = "motion.Gesture"
    static let maxDepth = 64
    /// Converting runs in Swift, where the time limit cannot interrupt it: this bounds one
    /// conversion's work (a 10,000-element table is well within it).
    static let maxParts = 100_000

    /// Pushes `value`; throws (pushing nothing more) when Lua's stack has no room left.
    static func push(_ value: MotionValue, on lua: Lua) throws {
        guard lua.checkStack(3) else {
            throw LuaBindingError("a value nested too deep for Lua's stack")
        }
        switch value {
        case .null: lua.pushNil()
        case .bool(let b): lua.push(b)
        case .number(let n): lua.push(n)
        case .integer(let i): lua.push(i)
        case .string(let s): lua.push(s)
        case .point(let p): pushPoint(p, on: lua)
        case .gesture(let g): pushGesture(g, on: lua)
        case .pointerEvent(let e): pushPointerEvent(e, on: lua)
        case .array(let items):
            lua.newTable(arrayCount: Int32(clamping: items.count))
            for (i, item) in items.enumerated() {
                do { try push(item, on: lua) } catch { lua.pop(); throw error }
                lua_rawseti(lua.L, -2, lua_Integer(i + 1))
            }
        case .object(let fields):
            lua.newTable(recordCount: Int32(clamping: fields.count))
            for field in fields {
                do { try push(field.value, on: lua) } catch { lua.pop(); throw error }
                lua.setField(field.key, in: -2)
            }
        }
    }

    /// `{x=, y=}`, sized for its two fields, keys interned (see `ms_pushpoint`): close to what
    /// a table constructor costs in Lua. Needs 3 free stack slots (checked by `push`).
    static func pushPoint(_ p: Point, on lua: Lua) {
        ms_pushpoint(lua.L, p.x, p.y)
    }

    /// The interned name of a phase (see `ms_pushpointer`).
    static func phaseKey(_ phase: PointerPhase) -> Int32 {
        switch phase {
        case .down: Int32(MS_KEY_DOWN)
        case .move: Int32(MS_KEY_MOVE)
        case .up: Int32(MS_KEY_UP)
        case .cancel: Int32(MS_KEY_CANCEL)
        }
    }

    /// `{id=, phase=, x=, y=}`, built as `pushPoint` builds a point. Needs 3 free stack slots.
    static func pushPointerEvent(_ e: PointerEvent, on lua: Lua) {
        ms_pushpointer(lua.L, Int64(e.id), phaseKey(e.phase), e.x, e.y)
        if let device = e.device { addDevice(device, toTableAt: lua.top, on: lua) }
    }

    /// Live input: which device the pointer came from (4 more slots: key, table, key, value;
    /// left out when Lua's stack has no room for them).
    static func addDevice(_ device: PointerDevice, toTableAt table: Int32, on lua: Lua) {
        guard lua_checkstack(lua.L, 4) != 0 else { return }
        lua.push(key: "device")
        lua.newTable(recordCount: 2)
        lua.push(device.name)
        lua.setField("name", in: -2)
        lua.push(device.kind)
        lua.setField("kind", in: -2)
        lua_rawset(lua.L, table)
    }

    /// A userdata holding the snapshot, with the gesture metatable (see `ms_newgesture`).
    static func pushGesture(_ g: GestureValue, on lua: Lua) {
        let block = ms_newgesture(lua.L, MemoryLayout<GestureValue>.size)!
        block.initializeMemory(as: GestureValue.self, repeating: g, count: 1)
    }

    static func gesture(_ lua: Lua, at index: Int32) -> GestureValue? {
        guard let block = ms_testgesture(lua.L, index) else { return nil }
        return block.load(as: GestureValue.self)
    }

    /// The Lua value at `index` as a MotionValue; throws for functions, threads and userdata
    /// that are not gesture values, for tables that cannot be output (see the type), and for
    /// values too large for the memory limit.
    static func value(_ lua: Lua, at index: Int32) throws -> MotionValue {
        var reader = Reader(lua: lua)
        return try reader.value(at: lua.absoluteIndex(index), depth: 0)
    }

    /// One conversion's bookkeeping: the tables on the path from the root (cycles), the
    /// values read so far and the bytes the Swift copy will take.
    private struct Reader {
        let lua: Lua
        var path: [UnsafeRawPointer] = []
        var parts = 0
        var bytes = 0
        /// Bytes the copy may take: what is left under the memory limit (at least 64 KiB, so
        /// small values always pass), or no bound without a limit.
        let budget: Int
        let limit: Int

        /// Rough Swift cost of one value (an enum payload, an array or tuple slot).
        static let bytesPerPart = 48

        init(lua: Lua) {
            self.lua = lua
            limit = Int(ms_memorylimit(lua.L))
            budget = limit == 0 ? .max : max(limit - Int(ms_memoryused(lua.L)), 64 << 10)
        }

        mutating func count(bytes more: Int) throws {
            parts += 1
            guard parts <= LuaConversion.maxParts else {
                throw LuaBindingError("a value of more than \(LuaConversion.maxParts) parts (a table shared by several fields counts each time), which is too large to use")
            }
            bytes += Self.bytesPerPart + more
            guard bytes <= budget else {
                throw LuaBindingError("not enough memory: the value is too large for the Lua memory limit of \(limit) bytes")
            }
        }

        mutating func value(at index: Int32, depth: Int) throws -> MotionValue {
            switch lua.type(at: index) {
            case LUA_TNIL, LUA_TNONE:
                try count(bytes: 0)
                return .null
            case LUA_TBOOLEAN:
                try count(bytes: 0)
                return .bool(lua.bool(at: index)!)
            case LUA_TNUMBER:
                try count(bytes: 0)
                if let i = lua.luaInteger(at: index) { return .integer(i) }
                return .number(lua.number(at: index)!)
            case LUA_TSTRING:
                // Counted before the copy is made.
                try count(bytes: lua.stringLength(at: index))
                return .string(lua.string(at: index)!)
            case LUA_TTABLE:
                try count(bytes: 0)
                return try table(at: lua.absoluteIndex(index), depth: depth)
            case LUA_TUSERDATA:
                try count(bytes: 0)
                if let g = LuaConversion.gesture(lua, at: index) { return .gesture(g) }
                throw LuaBindingError("a \(lua.typeName(at: index)), which is not a value a stream can carry")
            default:
                throw LuaBindingError("a \(lua.typeName(at: index)), which is not a value a stream can carry")
            }
        }

        private mutating func table(at index: Int32, depth: Int) throws -> MotionValue {
            if depth < LuaConversion.maxDepth, let p = point(at: index) {
                // Its two numbers and their one-byte keys, counted as the general path counts them.
                try count(bytes: 0)
                try count(bytes: 0)
                try count(bytes: 1)
                try count(bytes: 1)
                return .point(p)
            }
            let identity = lua_topointer(lua.L, index)!
            guard !path.contains(identity) else {
                throw LuaBindingError("a table that contains itself (a cycle), which cannot be output")
            }
            guard depth < LuaConversion.maxDepth else {
                throw LuaBindingError("a table nested more than \(LuaConversion.maxDepth) deep, which cannot be output")
            }
            // The key and value lua_next pushes, and one more for what reading them pushes.
            guard lua.checkStack(4) else { throw LuaBindingError("a table nested too deep for Lua's stack") }
            path.append(identity)
            defer { path.removeLast() }
            var integerKeys: [(Int, MotionValue)] = []
            var stringKeys: [(key: String, value: MotionValue)] = []
            lua.pushNil()
            while lua_next(lua.L, index) != 0 {
                let value: MotionValue
                do {
                    value = try self.value(at: lua.top, depth: depth + 1)
                } catch {
                    lua.pop(2)
                    throw error
                }
                lua.pop()
                if let i = lua.luaInteger(at: -1) {
                    integerKeys.append((i, value))
                } else if lua.type(at: -1) == LUA_TSTRING {
                    try count(bytes: lua.stringLength(at: -1))
                    stringKeys.append((lua.string(at: -1)!, value))
                } else {
                    let problem = keyProblem(at: -1)
                    lua.pop()
                    throw LuaBindingError(problem)
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
            // Integer keys are written as strings: one that spells a string key already present
            // would make two equal keys in one JSON object.
            if !integerKeys.isEmpty, !stringKeys.isEmpty {
                let names = Set(stringKeys.map(\.key))
                if let clash = integerKeys.first(where: { names.contains(String($0.0)) }) {
                    throw LuaBindingError("a table with both the key \(clash.0) and the key \"\(clash.0)\" (the same JSON key), which cannot be output")
                }
            }
            var fields = stringKeys
            fields.append(contentsOf: integerKeys.map { (key: String($0.0), value: $0.1) })
            fields.sort { $0.key < $1.key }
            return .object(fields)
        }

        /// `{x = number, y = number}` and nothing else, read straight off the table: the value
        /// a `map` returns per event, so no path, no key strings and no arrays are made for it.
        /// Nil for any other table (the general path then reads it, and finds what it finds).
        private func point(at index: Int32) -> Point? {
            var x = 0.0, y = 0.0
            guard ms_topoint(lua.L, index, &x, &y) != 0 else { return nil }
            return Point(x: x, y: y)
        }

        /// Why the key at `index` cannot be output, naming it when it has a short form.
        private func keyProblem(at index: Int32) -> String {
            let suffix = ", which cannot be output (only string and integer keys can)"
            switch lua.type(at: index) {
            case LUA_TNUMBER:
                let n = lua.number(at: index)!
                return "a table with the non-integer number key \(n.isFinite ? JSONText.number(n) : "\(n)")" + suffix
            case LUA_TBOOLEAN:
                return "a table with the boolean key \(lua.bool(at: index)!)" + suffix
            default:
                return "a table with a \(lua.typeName(at: index)) key" + suffix
            }
        }
    }
}
