import CLua
import CLuaShim
import MotionGestures
import MotionStreams

/// The global `motion` table (also `require "motion"`).
enum MotionModule {
    static let functions: [(String, Binding)] = [
        ("element", BindingTable.register("motion.element", element)),
        ("translation", BindingTable.register("motion.translation", translation)),
        ("pan", BindingTable.register("motion.pan", translation)),
        ("gesture", BindingTable.register("motion.gesture", gesture)),
        ("property", BindingTable.register("motion.property", property)),
        ("pointers", BindingTable.register("motion.pointers", pointers)),
        ("time", BindingTable.register("motion.time", { call in call.lua.push(call.runtime.time); return 1 })),
        ("emit", BindingTable.register("motion.emit", emit)),
    ]

    /// Lua's `print` writes to stdout, where it would break the JSON Lines output: diagnostics
    /// go to stderr, so `print` does too.
    private static let printToStderr = """
        local select, tostring, stderr = select, tostring, io.stderr
        print = function(...)
          local n = select("#", ...)
          for i = 1, n do
            if i > 1 then stderr:write("\\t") end
            stderr:write(tostring((select(i, ...))))
          end
          stderr:write("\\n")
        end
        """

    static func install(on lua: Lua, scriptPath: String) {
        // Before any script code runs: nothing here can fail but memory (uncapped while Swift runs).
        if luaL_loadbufferx(lua.L, printToStderr, printToStderr.utf8.count, "=motionscript", nil) == LUA_OK {
            _ = ms_pcalllua(lua.L, 0, 0, 0)
        } else {
            lua.pop()
        }
        BindingTable.pushTable(functions + RecognizerFactories.functions + SourceFactories.functions
                               + ActionFunctions.functions + DesktopRecognizerFactories.functions, on: lua)
        AppFunctions.install(on: lua)
        ActionFunctions.installMouse(on: lua)
        LuaObject.push(ElementBox(.screen), .element, on: lua)
        lua.setField("screen", in: -2)
        lua.pushValue(at: -1)
        lua_setglobal(lua.L, "motion")
        // package.loaded.motion, so `require "motion"` returns the same table.
        lua_getglobal(lua.L, "package")
        lua.getField("loaded", in: -1)
        lua.pushValue(at: -3)
        lua.setField("motion", in: -2)
        lua.pop()
        // Modules beside the script are found first.
        let directory = scriptPath.contains("/") ? String(scriptPath[..<scriptPath.lastIndex(of: "/")!]) : "."
        lua.getField("path", in: -1)
        let path = lua.string(at: -1) ?? ""
        lua.pop()
        lua.push("\(directory)/?.lua;\(directory)/?/init.lua;" + path)
        lua.setField("path", in: -2)
        lua.pop(2)
    }

    static func element(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: "motion.element",
                                  known: ["x", "y", "width", "height", "rotation", "scale"])
        guard !call.lua.isNoneOrNil(1) else { throw LuaBindingError("motion.element needs a table: {x=, y=, width=, height=}") }
        guard let width = try options.number("width", min: 0), let height = try options.number("height", min: 0) else {
            throw LuaBindingError("motion.element: options 'width' and 'height' are required")
        }
        let element = Element(x: try options.number("x") ?? 0, y: try options.number("y") ?? 0,
                              width: width, height: height, rotation: try options.number("rotation") ?? 0,
                              scale: try options.number("scale", min: 0, exclusiveMin: true) ?? 1)
        LuaObject.push(ElementBox(element), .element, on: call.lua)
        return 1
    }

    static func add(_ recognizer: GestureRecognizer, _ call: LuaCall) -> Int32 {
        recognizer.devices = call.runtime.pendingDevices
        call.runtime.pendingDevices = nil
        call.runtime.noteCreationSite(of: recognizer, call.lua.L)
        recognizer.apps = call.runtime.pendingApps
        call.runtime.pendingApps = nil
        call.runtime.dispatcher.add(recognizer)
        LuaObject.push(RecognizerBox(recognizer), .recognizer, on: call.lua)
        return 1
    }

    static func translation(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name,
                                  known: ["element", "threshold", "minPointers", "maxPointers", "enabled", "fingers", "requireToFail"])
        let minPointers = try options.integer("minPointers", min: 1) ?? TranslationGestureRecognizer.defaultMinPointers
        let maxPointers = try options.integer("maxPointers", min: 1) ?? .max
        guard maxPointers >= minPointers else {
            throw LuaBindingError("\(call.name): option 'maxPointers' (\(maxPointers)) must be >= 'minPointers' (\(minPointers))")
        }
        let recognizer = try TranslationGestureRecognizer(
            element: try options.element() ?? .screen,
            threshold: try options.number("threshold", min: 0) ?? TranslationGestureRecognizer.defaultThreshold,
            minPointers: minPointers, maxPointers: maxPointers)
        try options.applyCommon(to: recognizer)
        return add(recognizer, call)
    }

    static func gesture(_ call: LuaCall) throws -> Int32 {
        let box: RecognizerBox = try call.object(1, .recognizer)
        let source = gestureSource(box.recognizer)
        let values = source._map { MotionValue.gesture($0) }
        // Only taps and holds decide off the frame (an interval or duration that ran out); the others
        // keep the per-event path free of the stamping layer.
        guard box.recognizer.decidesOnTime else {
            LuaObject.push(LuaStream(values, gestures: (source, box.recognizer.value.kind)), .stream, on: call.lua)
            return 1
        }
        return try StreamMethods.push(RecognizerFactories.stamped(values, by: box.recognizer, call.runtime), call)
    }

    /// `motion.property(initial [, {keep = "name"}])`. With `keep`, the property starts from
    /// the value the previous version of the script left in its property of the same keep
    /// name (hot reload), and `initial` only when there is none.
    static func property(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 2, for: "motion.property", known: ["keep"])
        var initial = try call.value(1)
        let runtime = call.runtime
        if let keep = try options.string("keep") {
            guard runtime.keptProperties[keep] == nil else {
                throw LuaBindingError("motion.property: keep name '\(keep)' is already used by another property")
            }
            if let inherited = runtime.inheritedValues[keep] { initial = inherited }
            let property = LuaProperty(initial)
            runtime.keptProperties[keep] = property
            LuaObject.push(property, .property, on: call.lua)
            return 1
        }
        LuaObject.push(LuaProperty(initial), .property, on: call.lua)
        return 1
    }

    /// Raw input: one {id, phase, x, y} per pointer change, in input order (inline connection).
    static func pointers(_ call: LuaCall) throws -> Int32 {
        // Weak: the dispatcher holds the listener, and what it feeds may hold this closure.
        weak let dispatcher = call.runtime.dispatcher
        let source = MotionObservable<MotionValue> { observer in
            guard let id = dispatcher?.addPointerListener({ event in
                observer.next(.pointerEvent(event))
            }) else { return {} }
            return { dispatcher?.removePointerListener(id) }
        }
        let results = try StreamMethods.push(source, call)
        if let stream: LuaStream = LuaObject.get(call.lua, at: -1, .stream) { stream.isPointers = true }
        return results
    }

    static func emit(_ call: LuaCall) throws -> Int32 {
        let name = try call.string(1)
        call.runtime.output.emit(t: call.runtime.time, name: name, value: try call.value(2))
        return 0
    }
}
