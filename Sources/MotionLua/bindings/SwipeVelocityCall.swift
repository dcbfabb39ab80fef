import CLua
import MotionGestures
import MotionStreams

/// A swipe's `g.velocity` is its mean speed, a number (the contract's field), yet `g:velocity(E)`
/// works on every gesture value. Both hold because numbers get a `__call` metamethod:
/// `g:velocity(E)` is `g.velocity(g, E)`, a number called with the swipe it came from, which
/// answers the swipe's mean velocity as a point (its translation over its duration, in `E`).
/// Calling any other number is the error Lua gives. Per Lua state, made once at setup.
enum SwipeVelocityCall {
    static func install(on lua: Lua) {
        guard lua_checkstack(lua.L, 3) != 0 else { return }
        lua_pushnumber(lua.L, 0)
        lua.newTable()
        BindingTable.push(call, on: lua)
        lua.setField("__call", in: -2)
        // Scripts cannot see or change it (`getmetatable(1)` is false).
        lua_pushboolean(lua.L, 0)
        lua.setField("__metatable", in: -2)
        lua_setmetatable(lua.L, -2)
        lua.pop()
    }

    static let call = BindingTable.register("__call") { call in
        guard let g = LuaConversion.gesture(call.lua, at: 2), g.kind == .swipe else {
            throw LuaBindingError("attempt to call a number value")
        }
        LuaConversion.pushPoint(meanVelocity(g, in: try call.element(3)), on: call.lua)
        return 1
    }

    /// The swipe's mean velocity: its translation scaled to its mean speed (zero before it moved).
    static func meanVelocity(_ g: GestureValue, in element: Element) -> Point {
        guard g.distance > 0 else { return .zero }
        return g.translation(in: element) * (g.scalarVelocity / g.distance)
    }
}
