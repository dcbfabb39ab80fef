import CLua
import MotionActions
import MotionStreams
#if canImport(Glibc)
import Glibc
#endif

/// `motion.exec`, `motion.keys`, `motion.keyDown`, `motion.keyUp` and `motion.mouse.move`,
/// `.scroll`, `.button`. Each writes its action line, then, when the host performs actions
/// (live input, `--act`), does it. Key and button state is kept in every mode, so a script
/// reports the same lines whether or not its actions are performed.
enum ActionFunctions {
    static let functions: [(String, Binding)] = [
        ("exec", BindingTable.register("motion.exec", exec)),
        ("keys", BindingTable.register("motion.keys", keys)),
        ("keyDown", BindingTable.register("motion.keyDown") { try key($0, down: true) }),
        ("keyUp", BindingTable.register("motion.keyUp") { try key($0, down: false) }),
    ]

    static let mouseFunctions: [(String, Binding)] = [
        ("move", BindingTable.register("motion.mouse.move", move)),
        ("scroll", BindingTable.register("motion.mouse.scroll", scroll)),
        ("button", BindingTable.register("motion.mouse.button", button)),
    ]

    /// Sets `motion.mouse` on the table on top of the stack.
    static func installMouse(on lua: Lua) {
        BindingTable.pushTable(mouseFunctions, on: lua)
        lua.setField("mouse", in: -2)
    }

    static func isButton(_ code: UInt16) -> Bool { (0x110...0x117).contains(code) }

    /// `motion.exec(cmd)` runs `sh -c cmd`; `motion.exec{argv...}` runs argv[1] (searched in
    /// PATH) with the rest as arguments. Returns at once.
    static func exec(_ call: LuaCall) throws -> Int32 {
        let session = call.runtime.actions
        let isTable = call.lua.isTable(1)
        let command: ActionSession.Command
        // A script runs the same command on every gesture: when the arguments spell the last
        // one's byte for byte, its strings, arrays and line fields serve again (none made, none
        // checked, none freed).
        if let last = session.lastCommand, sameArguments(call.lua.L, isTable, last.argv) {
            command = last
        } else {
            let argv = try arguments(call, isTable)
            var shown: [MotionValue] = []
            shown.reserveCapacity(argv.count)
            for argument in argv { shown.append(.string(argument)) }
            command = ActionSession.Command(argv: argv, fields: [("argv", .array(shown))])
            session.lastCommand = command
        }
        call.runtime.output.emit(t: call.runtime.time, action: "exec", fields: command.fields)
        try session.launch(command, output: call.runtime.output)
        return 0
    }

    /// `motion.exec`'s argument as an argv, or its error.
    private static func arguments(_ call: LuaCall, _ isTable: Bool) throws -> [String] {
        let L = call.lua.L
        // A command line is C strings: a NUL byte would cut the argument there, while the
        // action line shows it whole. The first argument holding one (1-based), if any.
        var nulAt = 0
        if !isTable, let command = string(L, 1, &nulAt) {
            if nulAt != 0 { throw LuaBindingError("motion.exec: the command contains a NUL byte (\\0), which a command line cannot carry") }
            return ["sh", "-c", command]
        }
        guard isTable else { throw call.badArgument(1, "command string or table of arguments") }
        let count = lua_rawlen(L, 1)
        guard count > 0 else { throw LuaBindingError("motion.exec: the argument list is empty (give {\"program\", \"arg\", ...})") }
        var argv: [String] = []
        argv.reserveCapacity(Int(count))
        for i in 1...count {
            lua_rawgeti(L, 1, lua_Integer(i))
            defer { lua_settop(L, -2) }
            var nul = 0
            guard let item = string(L, -1, &nul) else {
                throw LuaBindingError("motion.exec: argument \(i) must be a string, got \(call.lua.typeName(at: -1))")
            }
            if nul != 0 && nulAt == 0 { nulAt = Int(i) }
            argv.append(item)
        }
        if nulAt != 0 { throw LuaBindingError("motion.exec: argument \(nulAt) contains a NUL byte (\\0), which a command line cannot carry") }
        return argv
    }

    /// Whether `motion.exec`'s argument spells `argv` (a valid argv made from an earlier call)
    /// byte for byte: then it is valid too. Anything else (another type, other bytes, bytes
    /// that were not UTF-8 and read back repaired) is not the same: it is read the full way.
    private static func sameArguments(_ L: OpaquePointer, _ isTable: Bool, _ argv: [String]) -> Bool {
        guard isTable else {
            return argv.count == 3 && argv[0] == "sh" && argv[1] == "-c" && equal(L, 1, argv[2])
        }
        guard lua_rawlen(L, 1) == argv.count else { return false }
        for i in 0..<argv.count {
            lua_rawgeti(L, 1, lua_Integer(i + 1))
            let same = equal(L, -1, argv[i])
            lua_settop(L, -2)
            if !same { return false }
        }
        return true
    }

    /// Whether the value at `index` is a Lua string of exactly the bytes of `s`.
    private static func equal(_ L: OpaquePointer, _ index: Int32, _ s: String) -> Bool {
        guard lua_type(L, index) == LUA_TSTRING else { return false }
        var length = 0
        guard let chars = lua_tolstring(L, index, &length) else { return false }
        let utf8 = s.utf8
        guard utf8.count == length else { return false }
        if length == 0 { return true }
        return utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, chars, length) == 0 } ?? false
    }

    /// The Lua string at `index` (strings only, not numbers), with `nul` set to 1 when it
    /// holds a NUL byte (found with memchr on Lua's bytes: no walk of the Swift string).
    private static func string(_ L: OpaquePointer, _ index: Int32, _ nul: inout Int) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = lua_tolstring(L, index, &length) else { return nil }
        if memchr(chars, 0, length) != nil { nul = 1 }
        return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// `motion.keys("ctrl+alt+Right")`: presses the chord and releases it.
    static func keys(_ call: LuaCall) throws -> Int32 {
        let text = try call.string(1)
        let chord = try perform(call) { try Chord(text) }
        try perform(call) { try call.runtime.actions.input.keys(chord) }
        call.runtime.output.emit(t: call.runtime.time, action: "keys", fields: [("keys", .string(text))])
        return 0
    }

    /// `motion.keyDown(key)` / `motion.keyUp(key)`: a held key, released at the latest when
    /// the script ends.
    static func key(_ call: LuaCall, down: Bool) throws -> Int32 {
        let name = try call.string(1)
        let code = try perform(call) { try KeyName.code(name) }
        let session = call.runtime.actions
        if down {
            if try perform(call, { try session.input.down(code) }) { session.heldNames[code] = name }
        } else {
            try perform(call) { try session.input.up(code) }
            session.heldNames[code] = nil
        }
        call.runtime.output.emit(t: call.runtime.time, action: down ? "keyDown" : "keyUp", fields: [("key", .string(name))])
        return 0
    }

    /// `motion.mouse.move(dx, dy)`: relative movement.
    static func move(_ call: LuaCall) throws -> Int32 {
        let (dx, dy) = (try finite(call, 1), try finite(call, 2))
        try perform(call) { try call.runtime.actions.input.move(dx: dx, dy: dy) }
        call.runtime.output.emit(t: call.runtime.time, action: "mouse", fields: [("move", .point(shown(dx, dy)))])
        return 0
    }

    /// `motion.mouse.scroll(dx, dy)`: in wheel notches, dy > 0 down, dx > 0 right.
    static func scroll(_ call: LuaCall) throws -> Int32 {
        let (dx, dy) = (try finite(call, 1), try finite(call, 2))
        try perform(call) { try call.runtime.actions.input.scroll(dx: dx, dy: dy) }
        call.runtime.output.emit(t: call.runtime.time, action: "mouse", fields: [("scroll", .point(shown(dx, dy)))])
        return 0
    }

    /// `motion.mouse.button(name, "down"|"up"|"click")` (default "click").
    static func button(_ call: LuaCall) throws -> Int32 {
        let name = try call.string(1)
        let code = try perform(call) { try MouseButton.code(name) }
        let pressName = try call.optionalString(2) ?? "click"
        guard let press = ButtonPress(rawValue: pressName) else {
            throw LuaBindingError("motion.mouse.button: the second argument must be \"down\", \"up\" or \"click\", got '\(pressName)'")
        }
        let session = call.runtime.actions
        switch press {
        case .down: if try perform(call, { try session.input.down(code) }) { session.heldNames[code] = name }
        case .up: try perform(call) { try session.input.up(code) }; session.heldNames[code] = nil
        case .click: try perform(call) { try session.input.click(code) }; session.heldNames[code] = nil
        }
        call.runtime.output.emit(t: call.runtime.time, action: "mouse",
                                 fields: [("button", .string(name)), ("press", .string(press.rawValue))])
        return 0
    }

    /// What an action line shows of a movement or scroll: rounded to a millionth of a unit
    /// (a device unit, a wheel notch), so that arithmetic noise (`7.599999999999966`, a
    /// difference of two floats) does not reach the lines scenarios pin. The device gets the
    /// value unrounded (fractions carry over to the next movement); no device resolves a
    /// millionth of a unit. Magnitudes of 2^53 / 10^6 and more are shown as they are.
    static func shown(_ dx: Double, _ dy: Double) -> Point {
        func round(_ v: Double) -> Double {
            guard abs(v) < 9e9 else { return v }
            let r = (v * 1e6).rounded() / 1e6
            return r == 0 ? 0 : r  // no -0
        }
        return Point(x: round(dx), y: round(dy))
    }

    private static func finite(_ call: LuaCall, _ index: Int32) throws -> Double {
        let value = try call.number(index)
        guard value.isFinite else { throw LuaBindingError("bad argument #\(index) to '\(call.name)' (finite number expected)") }
        return value
    }

    /// Turns an `ActionError` into the binding's error (the trampoline adds file:line).
    @discardableResult
    private static func perform<T>(_ call: LuaCall, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ActionError {
            throw LuaBindingError("\(call.name): \(error.message)")
        }
    }
}
