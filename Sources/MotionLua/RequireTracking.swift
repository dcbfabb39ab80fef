import CLua
import CLuaShim

/// Records the file of every Lua module `require` looks up, so hot reload can watch them.
///
/// Lua's own file searcher (package.searchers[2]) is wrapped by a small Lua function that
/// first asks `package.searchpath` where the module is and appends that path to a list kept in
/// the registry. Done in Lua, it needs no binding and sees exactly the path `require` uses,
/// including modules that then fail to load (fixing such a file must trigger a reload too).
enum RequireTracking {
    static let registryKey = "motionscript.required"

    private static let wrapper = """
        local files, searchers, searchpath, path = ...
        local lua_searcher = searchers[2]
        searchers[2] = function(name)
          local found = searchpath(name, path())
          if found then files[#files + 1] = found end
          return lua_searcher(name)
        end
        """

    /// Installs the wrapper; the script has not run yet, so nothing can fail here but memory
    /// (the state is uncapped while Swift runs).
    static func install(on lua: Lua) {
        let L = lua.L
        let base = lua.top
        defer { lua.top = base }
        lua.newTable()
        lua.pushValue(at: -1)
        lua.setField(registryKey, in: ms_registryindex())
        guard luaL_loadbufferx(L, wrapper, wrapper.utf8.count, "=motionscript", nil) == LUA_OK else { return }
        lua.pushValue(at: -2)  // files
        lua_getglobal(L, "package")
        lua.getField("searchers", in: -1)
        lua.getField("searchpath", in: -2)
        // `path()` reads package.path when require runs, so a script's own changes count.
        guard luaL_loadbufferx(L, "return package.path", 19, "=motionscript", nil) == LUA_OK else { return }
        lua_rotate(L, -4, -1)  // drop `package` from under the three arguments
        lua.pop()
        _ = ms_pcalllua(L, 4, 0, 0)
    }

    /// The recorded paths, in order, without duplicates.
    static func files(in lua: Lua) -> [String] {
        let base = lua.top
        defer { lua.top = base }
        guard lua.getField(registryKey, in: ms_registryindex()) == LUA_TTABLE else { return [] }
        var files: [String] = []
        let count = lua_rawlen(lua.L, -1)
        var i: lua_Integer = 1
        while i <= lua_Integer(count) {
            lua_rawgeti(lua.L, -1, i)
            if let file = lua.string(at: -1), !files.contains(file) { files.append(file) }
            lua.pop()
            i += 1
        }
        return files
    }
}
