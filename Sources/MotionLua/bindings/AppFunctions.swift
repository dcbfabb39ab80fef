import CLua
import MotionGestures
import MotionStreams

/// `motion.app`: the focused application (docs/desktop.md, "Per-application gestures").
/// `motion.app.current()` → `{id=, class=, instance=, title=, pid=}` or nil (unknown, or no
/// window focused); `motion.app.changes()` → a stream with one such value (or nil) per change.
public enum AppFunctions {
    static let functions: [(String, Binding)] = [
        ("current", BindingTable.register("motion.app.current") { call in
            let focus = call.runtime.dispatcher.focus
            try LuaConversion.push(value(of: focus.isKnown ? focus.current : nil), on: call.lua)
            return 1
        }),
        ("changes", BindingTable.register("motion.app.changes", changes)),
    ]

    static func install(on lua: Lua) {
        BindingTable.pushTable(functions, on: lua)
        lua.setField("app", in: -2)
    }

    static func changes(_ call: LuaCall) throws -> Int32 {
        // Weak: the focus holds the listener, and what it feeds may hold this closure.
        weak let focus = call.runtime.dispatcher.focus
        let source = MotionObservable<MotionValue> { observer in
            guard let id = focus?.addListener({ app in observer.next(value(of: app)) }) else { return {} }
            return { focus?.removeListener(id) }
        }
        return try StreamMethods.push(source, call)
    }

    /// The app as scripts and output lines see it: a table of its known fields (id first), or nil.
    public static func value(of app: AppInfo?) -> MotionValue {
        guard let app else { return .null }
        var fields: [(key: String, value: MotionValue)] = [("id", .string(app.id))]
        if let c = app.className { fields.append(("class", .string(c))) }
        if let i = app.instance { fields.append(("instance", .string(i))) }
        if let t = app.title { fields.append(("title", .string(t))) }
        if let p = app.pid { fields.append(("pid", .integer(p))) }
        return .object(fields)
    }
}
