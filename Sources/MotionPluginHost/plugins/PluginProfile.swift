import MotionLua

/// The standard library a plugin runs in: the whole of it, less what does not fit a host that
/// runs all day for several plugins at once (docs/daemon.md, "The plugin profile"):
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
/// `print` writes to stderr as everywhere, each line starting with the plugin's name. It,
/// `io.stderr`, `io.stdout` and `io.write` go through the host's stderr queue, not C stdio:
/// a stderr nobody reads never blocks the daemon (`io.stderr` is a stand-in with `write`,
/// `flush`, `setvbuf`, `close` and `seek`; `io.type` calls it a file).
/// Built on the same mechanism as `Sandbox`: Lua source run in the fresh state before the plugin.
public enum PluginProfile {
    /// The profile's Lua source for the plugin `name`.
    public static func source(plugin name: String) -> String {
        """
        local error, select, tostring, input = error, select, tostring, io.input
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
        -- Stderr without Lua's C stdio, whose write(2) would block every plugin once a reader
        -- stops reading: the host queues what is written and never waits (docs/daemon.md).
        local toStderr = ...
        local concat, format, mathtype, type, setmetatable = table.concat, string.format, math.type, type, setmetatable
        local rawstdout, rawstderr, output, iowrite, iotype = io.stdout, io.stderr, io.output, io.write, io.type
        -- What file:write writes: strings as they are, numbers as Lua writes them.
        local function text(...)
          local n = select("#", ...)
          local parts = {}
          for i = 1, n do
            local v = select(i, ...)
            local kind = type(v)
            if kind == "string" then parts[i] = v
            elseif kind == "number" then parts[i] = mathtype(v) == "integer" and format("%d", v) or format("%.14g", v)
            else error("bad argument #" .. i .. " to 'write' (string expected, got " .. kind .. ")", 3) end
          end
          return concat(parts)
        end
        local File = {}
        File.__index = File
        File.__name = "FILE*"
        File.__tostring = function(f) return "file (" .. f.name .. ")" end
        function File:write(...) toStderr(text(...)); return self end
        function File:flush() return self end
        function File:setvbuf() return true end
        function File:close() return nil, "cannot close standard file" end
        function File:seek() return nil, "Illegal seek", 29 end
        -- Descriptor 1 is a copy of stderr for a plugin too (stdout is the JSON Lines): the same path.
        local stdout = setmetatable({name = "stdout"}, File)
        local stderr = setmetatable({name = "stderr"}, File)
        local function proxy(f) return f == rawstdout and stdout or f == rawstderr and stderr or f end
        io.stdout, io.stderr = stdout, stderr
        io.write = function(...)
          local f = output()
          if f == rawstdout or f == rawstderr then toStderr(text(...)); return proxy(f) end
          return iowrite(...)
        end
        io.output = function(file)
          if file == stdout then file = rawstdout elseif file == stderr then file = rawstderr end
          if file == nil then return proxy(output()) end
          return proxy(output(file))
        end
        io.type = function(f)
          if f == stdout or f == stderr then return "file" end
          return iotype(f)
        end
        print = function(...)
          local n = select("#", ...)
          local parts = {plugin, ": "}
          for i = 1, n do
            if i > 1 then parts[#parts + 1] = "\\t" end
            parts[#parts + 1] = tostring((select(i, ...)))
          end
          parts[#parts + 1] = "\\n"
          toStderr(concat(parts))
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
