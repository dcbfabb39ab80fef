import CLua
import CLuaShim

/// Registers the metatable of every type Lua sees, once per state.
enum Metatables {
    static func install(on lua: Lua) {
        define(.stream, on: lua) { BindingTable.pushTable(StreamMethods.all, on: lua) }
        define(.property, on: lua) { BindingTable.pushTable(PropertyMethods.all + StreamMethods.all, on: lua) }
        define(.subscription, on: lua) { BindingTable.pushTable(SubscriptionMethods.all, on: lua) }
        define(.recognizer, on: lua, index: RecognizerMethods.index, newIndex: RecognizerMethods.newIndex) {
            BindingTable.pushTable(RecognizerMethods.all + RecognizerFactories.recognizerMethods + RecognizerStateCallbacks.methods, on: lua)
        }
        define(.element, on: lua, index: ElementMethods.index) { lua.newTable() }

        // Gesture values are plain structs in userdata: no __gc.
        luaL_newmetatable(lua.L, LuaConversion.gestureMetatable)
        ms_setmetatableslot(lua.L, MS_METATABLE_GESTURE)
        BindingTable.pushTable(GestureMethods.all, on: lua)
        BindingTable.push(GestureMethods.index, on: lua, withUpvalue: true)
        lua.setField("__index", in: -2)
        BindingTable.push(GestureMethods.toString, on: lua)
        lua.setField("__tostring", in: -2)
        ms_protectmetatable(lua.L)
        lua.pop()
        SwipeVelocityCall.install(on: lua)
    }

    /// A metatable whose `__index` is the methods table, or an `index` binding that gets the
    /// methods table as upvalue 3 (for types with fields too).
    private static func define(_ type: LuaObjectType, on lua: Lua, index: Binding? = nil, newIndex: Binding? = nil,
                               pushMethods: () -> Void) {
        luaL_newmetatable(lua.L, type.rawValue)  // by name too: __name, for tostring and messages
        ms_setmetatableslot(lua.L, type.slot)
        pushMethods()
        if let index {
            BindingTable.push(index, on: lua, withUpvalue: true)
        }
        lua.setField("__index", in: -2)
        if let newIndex {
            BindingTable.push(newIndex, on: lua)
            lua.setField("__newindex", in: -2)
        }
        LuaObject.pushCollector(for: type, on: lua)
        lua.setField("__gc", in: -2)
        // A script may read it (getmetatable(x).__index) but not put a Lua __gc there, which the
        // collector would run with hooks off (see CLuaShimFinalizers.h).
        ms_protectmetatable(lua.L)
        lua.pop()
    }

    /// For `__index` bindings: pushes methods[key] from upvalue 3; returns 1.
    static func pushMethod(_ call: LuaCall, keyIndex: Int32 = 2) -> Int32 {
        lua_pushvalue(call.lua.L, keyIndex)
        lua_rawget(call.lua.L, ms_upvalueindex(3))
        return 1
    }
}
