/// Lua 5.4 does not verify bytecode: a crafted binary chunk can crash the host. Every way a
/// script can load code takes text only: the script itself (loaded in mode "t"), `load` and
/// `loadfile` (whatever mode they are given), `dofile`, and `require`'s Lua file searcher.
/// (In a trusted run the debug library could still reach the original loaders; the sandbox
/// removes it.)
enum TextChunks {
    private static let source = """
        local load, loadfile, select, error, type, searchpath, package =
          load, loadfile, select, error, type, package.searchpath, package
        -- Arguments are passed on with their count, since load and loadfile treat a nil env
        -- differently from none.
        _G.load = function(chunk, chunkname, mode, ...)
          if select("#", ...) > 0 then return load(chunk, chunkname, "t", ...) end
          return load(chunk, chunkname, "t")
        end
        local function loadtext(filename, mode, ...)
          if select("#", ...) > 0 then return loadfile(filename, "t", ...) end
          return loadfile(filename, "t")
        end
        _G.loadfile = loadtext
        _G.dofile = function(filename)
          local f, message = loadfile(filename, "t")
          if not f then error(message, 0) end
          return f()
        end
        package.searchers[2] = function(name)
          if type(package.path) ~= "string" then error("'package.path' must be a string", 0) end
          local filename, message = searchpath(name, package.path)
          if not filename then return message end
          local f, problem = loadfile(filename, "t")
          if not f then
            error(("error loading module '%s' from file '%s':\\n\\t%s"):format(name, filename, problem), 0)
          end
          return f, filename
        end
        """

    static func install(on lua: Lua) { Prelude.run(source, on: lua) }
}
