import MotionGestures

/// Fields of recognizers: `r.state`, `r.kind`, `r.pointers`, `r.enabled` (writable).
enum RecognizerMethods {
    static let all: [(String, Binding)] = []

    static let index = BindingTable.register("__index") { call in
        let box: RecognizerBox = try call.object(1, .recognizer)
        let recognizer = box.recognizer
        switch call.lua.string(at: 2) {
        case "state": call.lua.push(recognizer.state.rawValue)
        case "kind": call.lua.push(recognizer.value.kind.rawValue)
        case "pointers": call.lua.push(recognizer.pointers.count)
        case "enabled": call.lua.push(recognizer.isEnabled)
        case "element": LuaObject.push(ElementBox(recognizer.element), .element, on: call.lua)
        default: return Metatables.pushMethod(call)
        }
        return 1
    }

    static let newIndex = BindingTable.register("__newindex") { call in
        let box: RecognizerBox = try call.object(1, .recognizer)
        guard call.lua.string(at: 2) == "enabled" else {
            throw LuaBindingError("recognizers have no writable field '\(call.lua.string(at: 2) ?? "?")' (only 'enabled')")
        }
        guard let enabled = call.lua.bool(at: 3) else {
            throw LuaBindingError("'enabled' must be a boolean, got \(call.lua.typeName(at: 3))")
        }
        // A gesture cancelled by this happens now, not at the recognizer's last frame.
        call.runtime.withTime(call.runtime.time) {
            box.recognizer.isEnabled = enabled
            if !enabled { box.recognizer.reset() }
        }
        return 0
    }
}
