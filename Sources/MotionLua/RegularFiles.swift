import CLuaShim

/// Files a script opens without blocking, for the daemon's plugins (docs/daemon.md): every
/// way a script opens a file by name — `io.open`, `io.lines`, `io.input`, `io.output`,
/// `loadfile`, `dofile`, `require` — opens it non-blocking and refuses what is not a regular
/// file (a FIFO waits for a writer, a terminal or a device for input: in C, out of the time
/// limit's reach, and every plugin would wait). The refusal names the path, what it is and
/// `why`; stdin reads as empty. The C half (`ms_regularfiles_install`) replaces the openers;
/// the functions built on the stock opener inside liolib.c are rebuilt on it here.
enum RegularFiles {
    private static let source = """
        local open, lines, input, output, error, type = io.open, io.lines, io.input, io.output, error, type
        -- io.lines(filename, ...): as Lua's, which closes the file at its end (and, as the
        -- fourth value, when a generic for is left early).
        -- The stock functions' message when a file does not open.
        local function opened(filename, mode, level)
          local file, message = open(filename, mode)
          if not file then
            if message:sub(1, #filename + 2) == filename .. ": " then message = message:sub(#filename + 3) end
            error("cannot open file '" .. filename .. "' (" .. message .. ")", level + 1)
          end
          return file
        end
        -- io.lines(filename, ...): as Lua's, which closes the file at its end (and, as the
        -- fourth value, when a generic for is left early).
        io.lines = function(filename, ...)
          if filename == nil then return lines() end
          local file = opened(filename, "r", 2)
          local read = file:lines(...)
          local function pass(first, ...)
            if first == nil then file:close() end
            return first, ...
          end
          return function() return pass(read()) end, nil, nil, file
        end
        io.input = function(file)
          if type(file) == "string" then return input(opened(file, "r", 2)) end
          if file == nil then return input() end
          return input(file)
        end
        io.output = function(file)
          if type(file) == "string" then return output(opened(file, "w", 2)) end
          if file == nil then return output() end
          return output(file)
        end
        """

    /// Installs both halves, before anything captures the functions they replace.
    static func install(on lua: Lua, why: String) {
        ms_regularfiles_install(lua.L, why)
        Prelude.run(source, on: lua)
    }
}
