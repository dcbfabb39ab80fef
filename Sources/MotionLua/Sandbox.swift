/// The restricted standard library `motionscript test` runs scenarios in (and `run --sandbox`).
/// A scenario from someone else may read files but not change anything outside its Lua state:
///
/// - no processes: `os.execute`, `io.popen`, `os.exit` refuse;
/// - no file changes: `os.remove`, `os.rename`, `os.tmpname`, `io.tmpfile` refuse, `io.open`
///   opens for reading only ("r"/"rb"), `io.output(file)` refuses (`io.output()` still answers);
/// - no process-wide state: `os.setlocale` refuses (it would change every thread's locale);
/// - no native code: `package.loadlib` refuses, the C searchers of `require` are removed and
///   `package.cpath` is empty;
/// - no `debug` library (it reaches any upvalue, the registry and every metatable);
/// - text chunks only, as everywhere (`TextChunks`).
///
/// A refused function raises "NAME is not available in the sandbox" at the script's line; for
/// `os.execute` and `io.popen` the hint names `motion.exec`, whose actions tests record, rather
/// than `--trusted`, which would run the command during the test.
enum Sandbox {
    private static let source = """
        local error, type, open, output = error, type, io.open, io.output
        local function refuse(name, hint)
          hint = hint or "motionscript test --trusted lifts it"
          return function()
            error(name .. " is not available in the sandbox (" .. hint .. ")", 2)
          end
        end
        for _, name in ipairs{"exit", "remove", "rename", "tmpname", "setlocale"} do
          os[name] = refuse("os." .. name)
        end
        -- Lifting the sandbox would run the command for real during tests; motion.exec's
        -- actions are recorded as output lines, which a scenario can pin.
        local exec = "use motion.exec: tests record its actions as output lines instead of running them"
        os.execute = refuse("os.execute", exec)
        io.popen = refuse("io.popen", exec)
        io.tmpfile = refuse("io.tmpfile")
        io.open = function(filename, mode)
          if mode ~= nil and mode ~= "r" and mode ~= "rb" then
            error("io.open: mode '" .. tostring(mode) .. "' is not available in the sandbox (reading only: \\"r\\" or \\"rb\\")", 2)
          end
          return open(filename, mode)
        end
        io.output = function(file)
          if file ~= nil then error("io.output(file) is not available in the sandbox", 2) end
          return output()
        end
        \(NoNativeCode.source)
        """

    static func install(on lua: Lua) { Prelude.run(source, on: lua) }
}
