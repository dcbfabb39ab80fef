import CLua
import CLuaShim
import MotionActions

/// "did you mean" for the API's names. Lua says only "attempt to call a nil value (field
/// 'swpie')" for `motion.swpie{}` and "(method 'emitt')" for `s:emitt(…)`; the hint names the
/// close ones among the `motion` table's names (read from the state: whatever it holds) and
/// the methods of streams, recognizers, gesture values and subscriptions. Only a nil that is
/// called or indexed gets one: reading a missing field stays nil, for feature tests such as
/// `if motion.app then`.
enum NameHints {
    /// Method names of every type a script holds, for `(method 'NAME')`.
    static let methodNames: [String] = {
        let tables = [StreamMethods.all, PropertyMethods.all, SubscriptionMethods.all, RecognizerMethods.all,
                      RecognizerFactories.recognizerMethods, GestureMethods.all]
        return Array(Set(tables.flatMap { $0.map(\.0) }))
    }()

    /// `message` with the hint added after its first line's error (before a traceback), or as it is.
    static func hinted(_ message: String, motionNames: () -> [String]) -> String {
        guard let (kind, name) = missingName(in: message), !message.contains("; did you mean ") else { return message }
        let close: [String]
        switch kind {
        case "method":
            close = CloseNames.closest(to: name, among: methodNames, count: 3).map { ":" + $0 }
        case "global":
            close = CloseNames.closest(to: name, among: ["motion"], count: 1)
        default:
            // A field: of `motion` or one of its tables (motion.mouse.move), by its last part.
            let names = motionNames()
            let byLast = Dictionary(grouping: names) { String($0.split(separator: ".").last ?? "") }
            close = CloseNames.closest(to: name, among: Array(byLast.keys), count: 3).flatMap { byLast[$0] ?? [] }
        }
        guard !close.isEmpty else { return message }
        let hint = "; did you mean \(close.prefix(3).joined(separator: ", "))?"
        let end = message.range(of: "\nstack traceback:")?.lowerBound ?? message.endIndex
        let firstLine = message[..<end].firstIndex(of: "\n") ?? end
        return String(message[..<firstLine]) + hint + String(message[firstLine...])
    }

    /// The kind ("field", "method", "global") and name of a nil that was called or indexed.
    static func missingName(in message: String) -> (String, String)? {
        for prefix in ["attempt to call a nil value (", "attempt to index a nil value ("] {
            guard let start = message.range(of: prefix) else { continue }
            let rest = message[start.upperBound...]
            guard let space = rest.firstIndex(of: " "), rest[rest.index(after: space)...].hasPrefix("'") else { continue }
            let kind = String(rest[..<space])
            let nameStart = rest.index(space, offsetBy: 2)
            guard let nameEnd = rest[nameStart...].firstIndex(of: "'") else { continue }
            return (kind, String(rest[nameStart..<nameEnd]))
        }
        return nil
    }

    /// `motion.NAME` for every string key of the global `motion` table, and `motion.T.NAME`
    /// for the tables in it (`motion.mouse.move`). Raw accesses only: nothing here can raise.
    static func motionNames(_ L: OpaquePointer) -> [String] {
        guard lua_checkstack(L, 6) != 0 else { return [] }
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        lua_rawgeti(L, ms_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        lua_pushstring(L, "motion")
        guard lua_rawget(L, -2) == LUA_TTABLE else { return [] }
        var names: [String] = []
        func walk(_ prefix: String, depth: Int) {
            lua_pushnil(L)
            while lua_next(L, -2) != 0 {
                if lua_type(L, -2) == LUA_TSTRING, let key = lua_tolstring(L, -2, nil).map({ String(cString: $0) }) {
                    names.append(prefix + key)
                    if depth == 0, lua_type(L, -1) == LUA_TTABLE { walk(prefix + key + ".", depth: 1) }
                }
                lua_settop(L, -2)
            }
        }
        walk("motion.", depth: 0)
        return names
    }
}
