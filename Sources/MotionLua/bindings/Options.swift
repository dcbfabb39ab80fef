import CLua
import MotionGestures
import MotionJSON

/// Reads an options table (`motion.translation{threshold = 12}`), naming the option in every
/// error, and rejecting options the function does not know (a typo is an error, not a no-op).
struct Options {
    let call: LuaCall
    let index: Int32
    let function: String
    private let present: Bool

    init(_ call: LuaCall, at index: Int32, for function: String, known: [String]) throws {
        self.call = call
        self.index = call.lua.absoluteIndex(index)
        self.function = function
        present = !call.lua.isNoneOrNil(index)
        guard present else { return }
        guard call.lua.isTable(index) else {
            throw LuaBindingError("bad argument #\(index) to '\(function)' (table of options expected, got \(call.lua.typeName(at: index)))")
        }
        let lua = call.lua
        // Every recognizer (its options have `enabled`) takes `devices`; the next recognizer
        // added picks it up (`MotionModule.add`).
        let isRecognizer = known.contains("enabled")
        if isRecognizer {
            call.runtime.pendingDevices = try Self.devices(call, at: self.index, for: function)
            call.runtime.pendingApps = try Self.apps(call, at: self.index, for: function)
        }
        lua.pushNil()
        while lua_next(lua.L, self.index) != 0 {
            lua.pop()
            if isRecognizer, let key = lua.string(at: -1), Self.everyRecognizers.contains(key) { continue }
            guard let key = lua.string(at: -1), known.contains(key) else {
                let shown = lua.string(at: -1).map { "'\($0)'" } ?? "of type \(lua.typeName(at: -1))"
                lua.pop()
                throw LuaBindingError("\(function): unknown option \(shown) (known: \((isRecognizer ? known + Self.everyRecognizers : known).joined(separator: ", ")))")
            }
        }
    }

    /// Options every recognizer takes besides its own list: `devices`, `apps`, and `consume`
    /// (a touch it recognizes is kept from the desktop under `--proxy`, docs/desktop.md).
    static let everyRecognizers = ["devices", "apps", "consume"]

    /// `devices = "touchpad"` or `{"touchscreen", "name=Wacom*"}`: nil when absent.
    private static func devices(_ call: LuaCall, at index: Int32, for function: String) throws -> [String]? {
        try names("devices", call, at: index) {
            LuaBindingError("\(function): option 'devices' must be a device kind (touchpad, touchscreen, mouse, other) or name glob, or a list of them, got \($0)")
        }
    }

    /// `apps = "firefox"`, `{"firefox", "chromium"}` or `"!kitty"` (see `AppFilter`): nil when absent.
    private static func apps(_ call: LuaCall, at index: Int32, for function: String) throws -> AppFilter? {
        let names = try names("apps", call, at: index) {
            LuaBindingError("\(function): option 'apps' must be an application name (a leading '!' excludes it) or a list of them, got \($0)")
        }
        guard let names else { return nil }
        guard let filter = AppFilter(names) else {
            throw LuaBindingError("\(function): option 'apps' has an empty application name")
        }
        return filter
    }

    /// A string or a list of 1 to 64 strings under `key`; nil when absent; `bad(type name)` otherwise.
    private static func names(_ key: String, _ call: LuaCall, at index: Int32,
                              bad: (String) -> LuaBindingError) throws -> [String]? {
        let lua = call.lua
        lua.getField(key, in: index)
        defer { lua.pop() }
        if lua.isNoneOrNil(-1) { return nil }
        if let one = lua.string(at: -1), lua_type(lua.L, -1) == LUA_TSTRING { return [one] }
        guard lua.isTable(-1) else { throw bad(lua.typeName(at: -1)) }
        var list: [String] = []
        let count = lua_rawlen(lua.L, -1)
        guard count > 0, count <= 64 else { throw bad(lua.typeName(at: -1)) }
        for i in 1...Int(count) {
            lua_rawgeti(lua.L, -1, lua_Integer(i))
            defer { lua.pop() }
            guard lua_type(lua.L, -1) == LUA_TSTRING, let s = lua.string(at: -1) else { throw bad("table") }
            list.append(s)
        }
        return list
    }

    func withField<T>(_ key: String, _ body: () throws -> T?) rethrows -> T? {
        guard present else { return nil }
        call.lua.getField(key, in: index)
        defer { call.lua.pop() }
        if call.lua.isNoneOrNil(-1) { return nil }
        return try body()
    }

    func number(_ key: String, min: Double? = nil, exclusiveMin: Bool = false) throws -> Double? {
        try withField(key) {
            guard let value = call.lua.number(at: -1) else {
                throw LuaBindingError("\(function): option '\(key)' must be a number, got \(call.lua.typeName(at: -1))")
            }
            guard value.isFinite else { throw LuaBindingError("\(function): option '\(key)' must be finite") }
            if let min, exclusiveMin ? value <= min : value < min {
                throw LuaBindingError("\(function): option '\(key)' must be \(exclusiveMin ? ">" : ">=") \(JSONText.number(min)), got \(JSONText.number(value))")
            }
            return value
        }
    }

    func integer(_ key: String, min: Int) throws -> Int? {
        try withField(key) {
            guard let value = call.lua.integer(at: -1) else {
                throw LuaBindingError("\(function): option '\(key)' must be an integer, got \(call.lua.number(at: -1).map(JSONText.number) ?? call.lua.typeName(at: -1))")
            }
            guard value >= min else { throw LuaBindingError("\(function): option '\(key)' must be >= \(min), got \(value)") }
            return value
        }
    }

    func string(_ key: String) throws -> String? {
        try withField(key) {
            guard let value = call.lua.string(at: -1), !value.isEmpty else {
                throw LuaBindingError("\(function): option '\(key)' must be a non-empty string, got \(call.lua.typeName(at: -1))")
            }
            return value
        }
    }

    func bool(_ key: String) throws -> Bool? {
        try withField(key) {
            guard let value = call.lua.bool(at: -1) else {
                throw LuaBindingError("\(function): option '\(key)' must be a boolean, got \(call.lua.typeName(at: -1))")
            }
            return value
        }
    }

    func element(_ key: String = "element") throws -> Element? {
        try withField(key) {
            guard let box: ElementBox = LuaObject.get(call.lua, at: -1, .element) else {
                throw LuaBindingError("\(function): option '\(key)' must be an element (motion.element{...} or motion.screen), got \(call.lua.typeName(at: -1))")
            }
            return box.element
        }
    }
}
