import CLua
import CLuaShim

/// Lua code the host runs in a fresh state before the script (text-only loaders, the sandbox,
/// `print` to stderr). The script has not run yet, so nothing can fail here but memory, and
/// the state is uncapped while Swift runs.
enum Prelude {
    static func run(_ source: String, on lua: Lua) {
        let base = lua.top
        defer { lua.top = base }
        guard luaL_loadbufferx(lua.L, source, source.utf8.count, "=motionscript", "t") == LUA_OK else { return }
        _ = ms_pcalllua(lua.L, 0, 0, 0)
    }
}
