import CLua
import CLuaShim

/// Lua code the host runs in a fresh state before the script (text-only loaders, the sandbox,
/// `print` to stderr). The script has not run yet, so nothing can fail here but memory, and
/// the state is uncapped while Swift runs.
enum Prelude {
    /// `bindings` are the chunk's arguments (`local f = ...`): Swift functions the code keeps
    /// in its locals, never reachable by the script as globals.
    static func run(_ source: String, on lua: Lua, bindings: [Binding] = []) {
        let base = lua.top
        defer { lua.top = base }
        guard luaL_loadbufferx(lua.L, source, source.utf8.count, "=motionscript", "t") == LUA_OK else { return }
        // A fresh state: room for a few values is there (LUA_MINSTACK); asked for anyway.
        guard lua_checkstack(lua.L, Int32(bindings.count)) != 0 else { return }
        for binding in bindings { BindingTable.push(binding, on: lua) }
        _ = ms_pcalllua(lua.L, Int32(bindings.count), 0, 0)
    }
}
