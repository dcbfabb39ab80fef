import MotionLua

/// The standard library a plugin runs in: the whole of it, less what does not fit a host that
/// runs all day for several plugins at once (README "Plugins", docs/daemon.md):
///
/// - `os.exit` raises an error that names the plugin (it would end every plugin's host);
/// - `io.read`, `io.lines()` and `io.input(…)` refuse: the daemon's stdin is not a terminal,
///   and a blocking read would stop every plugin (`io.stdin` and `io.input()` read as empty,
///   whatever the process's stdin, and `loadfile()`/`dofile()` without a file name refuse);
/// - files open without blocking, regular files only (`regularFilesOnly`): `io.open`,
///   `io.lines`, `io.output`, `loadfile`, `dofile` and `require` refuse a FIFO, a terminal or
///   a device, naming the plugin and the path;
/// - `os.execute` and `io.popen` refuse: they block the host until the command ends
///   (`motion.exec` starts a command without waiting);
/// - `os.setlocale` refuses (process-wide: it would change number formatting for every plugin);
/// - no `debug` library, no C modules (`package.loadlib`, the C searchers of `require`).
///
/// `print` writes to stderr as everywhere, each line starting with the plugin's name.
/// Built on the same mechanism as `Sandbox`: Lua source run in the fresh state before the plugin.
public enum PluginProfile {
    /// The profile's Lua source for the plugin `name`.
    public static func source(plugin name: String) -> String {
        """
        local error, select, tostring, stderr, input = error, select, tostring, io.stderr, io.input
        local plugin = \(luaString(name))
        local function refuse(name, hint)
          return function()
            error(name .. " is not available to a plugin (" .. plugin .. ")" .. (hint or ""), 2)
          end
        end
        os.exit = function()
          error("os.exit is not available to a plugin (" .. plugin .. "): it would stop every plugin; raise an error instead", 2)
        end
        os.execute = refuse("os.execute", ": it blocks every plugin until the command ends; use motion.exec")
        io.popen = refuse("io.popen", ": it blocks every plugin until the command ends; use motion.exec")
        os.setlocale = refuse("os.setlocale", ": it would change every plugin's locale")
        io.read = refuse("io.read", ": the daemon has no terminal, and a blocking read stops every plugin")
        local lines = io.lines
        io.lines = function(filename, ...)
          if filename == nil then error("io.lines() on stdin is not available to a plugin (" .. plugin .. ")", 2) end
          return lines(filename, ...)
        end
        io.input = function(file)
          if file ~= nil then error("io.input(file) is not available to a plugin (" .. plugin .. ")", 2) end
          return input()
        end
        \(NoNativeCode.source)
        print = function(...)
          local n = select("#", ...)
          stderr:write(plugin, ": ")
          for i = 1, n do
            if i > 1 then stderr:write("\\t") end
            stderr:write(tostring((select(i, ...))))
          end
          stderr:write("\\n")
        end
        """
    }

    /// Why a plugin opens regular files only (`LuaRuntime(regularFilesOnly:)`): the end of the
    /// error when it names a FIFO, a terminal or a device, which could block every plugin.
    public static func regularFilesOnly(plugin name: String) -> String {
        "a plugin (\(name)) opens regular files only: reading anything else can block every plugin"
    }

    /// A Lua string literal for any text (a file name may hold quotes or backslashes).
    static func luaString(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case 0x20...0x7e where byte != 0x22 && byte != 0x5c: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                // Three digits: a digit after the escape must not join it.
                let digits = String(byte)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            }
        }
        return out + "\""
    }
}
