import CLua
import CLuaShim
import MotionGestures
import MotionJSON
import MotionStreams

/// Gesture values in Lua: fields `state`, `pointers`, `kind`, `t`, `taps` (tap gestures); methods `location(E)`,
/// `translation(E)`, `rotation()`, `scale()`, `velocity(E)`.
enum GestureMethods {
    static let all: [(String, Binding)] = [
        ("location", BindingTable.register("location") { call in
            LuaConversion.pushPoint(try gesture(call).location(in: try call.element(2)), on: call.lua)
            return 1
        }),
        ("translation", BindingTable.register("translation") { call in
            let g = try gesture(call)  // every kind: the pointers of each can move
            LuaConversion.pushPoint(g.translation(in: try call.element(2)), on: call.lua)
            return 1
        }),
        ("rotation", BindingTable.register("rotation") { call in
            call.lua.push(try gesture(call, requiring: [.rotation], "rotation").rotation)
            return 1
        }),
        ("scale", BindingTable.register("scale") { call in
            call.lua.push(try gesture(call, requiring: [.scale], "scale").scale)
            return 1
        }),
        ("velocity", BindingTable.register("velocity") { call in
            let g = try gesture(call)
            switch g.kind {
            case .rotation, .scale: call.lua.push(g.scalarVelocity)
            case .translation, .tap, .hold: LuaConversion.pushPoint(g.velocity(in: try call.element(2)), on: call.lua)
            case .swipe: LuaConversion.pushPoint(SwipeVelocityCall.meanVelocity(g, in: try call.element(2)), on: call.lua)
            }
            return 1
        }),
    ]

    static let index = BindingTable.register("__index") { call in
        let g = try gesture(call)
        // A method (`g:translation()`, per event in many scripts) is found without making a
        // Swift string of its name; a swipe's `velocity` is its field, not the method.
        if g.kind != .swipe || !isVelocity(call.lua, at: 2) {
            lua_pushvalue(call.lua.L, 2)
            if lua_rawget(call.lua.L, ms_upvalueindex(3)) != LUA_TNIL { return 1 }
            call.lua.pop()
        }
        switch call.lua.string(at: 2) {
        case "state": call.lua.push(g.state.rawValue)
        case "pointers": call.lua.push(g.pointers)
        case "kind": call.lua.push(g.kind.rawValue)
        case "t": call.lua.push(g.t)
        case "taps": call.lua.push(g.taps)
        // The focused application when the gesture began (nil: unknown).
        case "app": try LuaConversion.push(AppFunctions.value(of: call.runtime.dispatcher.focus.app(serial: Int(g.appSerial))), on: call.lua)
        // Swipes: the decided direction ("left"…, nil while possible), distance and mean speed.
        case "direction" where g.kind == .swipe: if let d = g.direction { call.lua.push(d.rawValue) } else { call.lua.pushNil() }
        case "distance" where g.kind == .swipe: call.lua.push(g.distance)
        // `g.velocity` stays the number, and `g:velocity(E)` still works (`SwipeVelocityCall`).
        case "velocity" where g.kind == .swipe: call.lua.push(g.scalarVelocity)
        case "speed" where g.kind == .swipe: call.lua.push(g.scalarVelocity)
        default: return Metatables.pushMethod(call)
        }
        return 1
    }

    static let toString = BindingTable.register("__tostring") { call in
        call.lua.push(JSONText.value(.gesture(try gesture(call))))
        return 1
    }

    private static func isVelocity(_ lua: Lua, at index: Int32) -> Bool {
        lua.type(at: index) == LUA_TSTRING && lua.string(at: index) == "velocity"
    }

    static func gesture(_ call: LuaCall) throws -> GestureValue {
        guard let g = LuaConversion.gesture(call.lua, at: 1) else { throw call.badArgument(1, "gesture value") }
        return g
    }

    static func gesture(_ call: LuaCall, requiring kinds: [GestureKind], _ method: String) throws -> GestureValue {
        let g = try gesture(call)
        guard kinds.contains(g.kind) else {
            throw LuaBindingError("\(method)() is for \(kinds.map { $0.rawValue }.joined(separator: " or ")) gestures; this is a \(g.kind.rawValue) gesture")
        }
        return g
    }
}
