import CLua
import CLuaShim
import Foundation
@testable import MotionLua
import Testing

/// The library functions that loop in C are replaced by stoppable copies (CLuaShimBounded.h):
/// they must give exactly what the stock ones give — results and errors — and stop at the
/// state's time limit where the stock ones ran on in C.
@Suite struct BoundedLibraryTests {
    /// A state with the stock library as `stock` (a copy of string, table and load) and the
    /// bounded functions installed in their places; runs `source`, which returns a string
    /// (empty: every comparison agreed; else the first that did not).
    private func compare(_ source: String) -> String {
        guard let L = ms_newstate(0) else { return "no state" }
        defer { ms_closestate(L) }
        luaL_openlibs(L)
        let copy = """
            stock = {string = {}, table = {}, load = load}
            for k, v in pairs(string) do stock.string[k] = v end
            for k, v in pairs(table) do stock.table[k] = v end
            """
        guard luaL_loadstring(L, copy) == LUA_OK, lua_pcallk(L, 0, 0, 0, 0, nil) == LUA_OK else { return "setup" }
        ms_bounded_install(L)
        guard luaL_loadstring(L, Self.prelude + source) == LUA_OK else { return String(cString: lua_tolstring(L, -1, nil)) }
        guard ms_pcalllua(L, 0, 1, 0) == LUA_OK else { return "raised: " + String(cString: lua_tolstring(L, -1, nil)) }
        return lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "no result"
    }

    /// `same(what, f, g, ...)`: calls both under pcall and compares every result and the error.
    private static let prelude = """
        local function show(ok, ...)
          local t = table.pack(...)
          local parts = {tostring(ok), tostring(t.n)}
          for i = 1, t.n do
            local v = t[i]
            if type(v) == "table" then
              local keys = {}
              for k, x in pairs(v) do keys[#keys + 1] = tostring(k) .. "=" .. tostring(x) end
              stock.table.sort(keys)
              v = "{" .. stock.table.concat(keys, ",") .. "}"
            elseif type(v) == "function" then v = "function"
            end
            -- A function's name in an error is looked up in package.loaded, where only the
            -- bounded one is now: the stock one is '?' there.
            parts[#parts + 1] = type(v) .. ":" .. tostring(v):gsub("to '[%w.]+'", "to '?'")
          end
          return stock.table.concat(parts, "|")
        end
        local checked = 0
        function same(what, f, g, ...)
          local a, b = show(pcall(f, ...)), show(pcall(g, ...))
          checked = checked + 1
          if a ~= b then error(what .. ": bounded " .. a .. " ~= stock " .. b, 0) end
        end
        function count() return checked end

        """

    @Test func patternMatchingGivesWhatLuasGivesOnThousandsOfPatterns() {
        let result = compare("""
            math.randomseed(19)
            local atoms = {"a", "b", ".", "%a", "%d", "%s", "%w", "%A", "[ab]", "[^a]", "[a-c]", "[%d_]", "[]]",
                           "%b()", "%f[%w]", "%f[%W]", "(", ")", "()", "%1", "%2", "^", "$", "%", "[", "%z", "x"}
            local suffixes = {"", "", "", "*", "+", "-", "?"}
            local letters = {"a", "b", "c", "(", ")", "1", " ", "_", "]", "\\0", "x"}
            local function pattern()
              local p = {}
              for i = 1, math.random(0, 5) do p[#p + 1] = atoms[math.random(#atoms)] .. suffixes[math.random(#suffixes)] end
              return table.concat(p)
            end
            local function subject()
              local s = {}
              for i = 1, math.random(0, 10) do s[#s + 1] = letters[math.random(#letters)] end
              return table.concat(s)
            end
            local function all(f) return function(...) local t = {} for a, b, c in f(...) do t[#t + 1] = tostring(a) .. "," .. tostring(b) .. "," .. tostring(c) end return table.concat(t, ";") end end
            local repl = {"%0", "<%1>", "%%", "%2", "x", 7, {a = "A", b = false}, function(a, b) return b or a end,
                          function() return {} end, "%"}
            for i = 1, 3000 do
              local s, p = subject(), pattern()
              local init = math.random(-4, 14)
              same("find " .. p, string.find, stock.string.find, s, p)
              same("find init " .. p, string.find, stock.string.find, s, p, init)
              same("find plain " .. p, string.find, stock.string.find, s, p, init, true)
              same("match " .. p, string.match, stock.string.match, s, p, init)
              same("gmatch " .. p, all(string.gmatch), all(stock.string.gmatch), s, p, init)
              local r = repl[math.random(#repl)]
              same("gsub " .. p, string.gsub, stock.string.gsub, s, p, r)
              same("gsub n " .. p, string.gsub, stock.string.gsub, s, p, r, math.random(-1, 3))
              same("method " .. p, function() return s:find(p) end, function() return stock.string.find(s, p) end)
            end
            -- Errors and edges named one by one.
            for _, p in ipairs{"%", "[a", "(()", "%b", "%f", "%fa", "%g", "(a)%2", "((a)", "a)", ("(a)"):rep(33), ("a?"):rep(30) .. "b", ("x*"):rep(250)} do
              same("edge " .. p, string.find, stock.string.find, "aaa(a)", p)
              same("edge gsub " .. p, string.gsub, stock.string.gsub, "aaa(a)", p, "%1")
            end
            same("no string", string.find, stock.string.find, {}, "a")
            same("number subject", string.find, stock.string.find, 12345, "3")
            same("bad repl", string.gsub, stock.string.gsub, "abc", "b", true)
            same("bad repl value", string.gsub, stock.string.gsub, "abc", "b", function() return {} end)
            same("init past end", string.find, stock.string.find, "abc", "", 10)
            same("empty at end", all(string.gmatch), all(stock.string.gmatch), "abc", "")
            return count() == 3000 * 8 + 26 + 6 and "" or "checked " .. count()
            """)
        #expect(result == "")
    }

    @Test func tableFunctionsRepAndLoadGiveWhatLuasGive() {
        let result = compare("""
            math.randomseed(7)
            local function list(n) local t = {} for i = 1, n do t[i] = math.random(1, 50) end return t end
            local function copy(t) local c = {} for k, v in pairs(t) do c[k] = v end return c end
            local function both(name, f, g, t, ...)
              local a, b = copy(t), copy(t)
              -- One line: an error names the line of the function that called the library.
              local function call(h, t, ...) local r = table.pack(h(t, ...)) return t, table.unpack(r, 1, r.n) end
              same(name, function(...) return call(f, a, ...) end, function(...) return call(g, b, ...) end, ...)
            end
            for i = 1, 300 do
              local t = list(math.random(0, 30))
              both("insert", table.insert, stock.table.insert, t, math.random(-2, 40))
              both("insert at", table.insert, stock.table.insert, t, math.random(-2, 40), "x")
              both("insert 4", table.insert, stock.table.insert, t, 1, 2, 3)
              both("remove", table.remove, stock.table.remove, t)
              both("remove at", table.remove, stock.table.remove, t, math.random(-2, 40))
              both("move", table.move, stock.table.move, t, math.random(-3, 30), math.random(-3, 30), math.random(-3, 30))
              both("concat", table.concat, stock.table.concat, t, ", ", math.random(0, 5), math.random(0, 40))
              both("sort", table.sort, stock.table.sort, t)
              both("sort desc", table.sort, stock.table.sort, t, function(a, b) return a > b end)
              both("sort bad order", table.sort, stock.table.sort, t, function(a, b) return true end)
              local sep = ({"", ",", "ab"})[math.random(3)]
              same("rep", string.rep, stock.string.rep, ({"", "x", "yz"})[math.random(3)], math.random(-2, 6), sep)
            end
            same("rep empty", string.rep, stock.string.rep, "", 5)
            same("rep empty sep", string.rep, stock.string.rep, "", 3, "")
            same("rep huge", string.rep, stock.string.rep, "x", math.maxinteger)
            same("rep bad", string.rep, stock.string.rep, "x", "y")
            same("rep float", string.rep, stock.string.rep, "", 2.5)
            same("concat bad", table.concat, stock.table.concat, {1, {}, 3})
            same("sort mixed", table.sort, stock.table.sort, {1, "x", 2})
            same("move too many", table.move, stock.table.move, {}, -1, math.maxinteger, 1)
            local chunks = {"return 1 + 2", "return ...", "x = ", "local a <const> = 1; a = 2", "return " .. ("1 + "):rep(300) .. "1",
                            "\\27Lua", "return 'unfinished", ("-- comment\\n"):rep(100) .. "error('x')", "#!shebang\\nreturn 1"}
            for _, c in ipairs(chunks) do
              same("load " .. c:sub(1, 20), load, stock.load, c)
              same("load named", load, stock.load, c, "=name", "t", {})
              same("load binary mode", load, stock.load, c, "@f", "b")
              local function reader(s) local i = 0 return function() i = i + 1 return s:sub(i * 3 - 2, i * 3) ~= "" and s:sub(i * 3 - 2, i * 3) or nil end end
              same("load reader", function() return load(reader(c)) end, function() return stock.load(reader(c)) end)
            end
            same("load bad reader", load, stock.load, function() return {} end)
            same("load not a function", load, stock.load, {})
            local ok = load("return ...", "x", "t", {})
            return ""
            """)
        #expect(result == "")
    }

    /// Each of these ran for 1 to 10 seconds inside one C call here (hours with larger numbers);
    /// a time limit of 0.05 s now stops each within a fraction of a second, with the timeout
    /// error at the script's line, and a pcall around it does not swallow it.
    @Test(arguments: [
        #"string.find(("a"):rep(130), ("a-"):rep(4) .. "b")"#,
        #"string.gsub(("a"):rep(130), ("a-"):rep(4) .. "b", "")"#,
        #"for _ in string.gmatch(("a"):rep(130), ("a-"):rep(4) .. "b") do end"#,
        #"string.find(("a"):rep(800000), ("a"):rep(400000) .. "b", 1, true)"#,
        #"table.move({}, 1, 1e8, 2)"#,
        #"table.remove(setmetatable({}, {__len = function() return 1e8 end}), 1)"#,
        #"table.insert(setmetatable({}, {__len = function() return 1e8 end}), 1, 1)"#,
        #"table.concat(setmetatable({}, {__len = function() return 0 end, __index = table.concat}), "", 1, 3e7)"#,
        #"table.sort(setmetatable({}, {__len = function() return 2^22 end, __index = rawlen, __newindex = rawequal}))"#,
        #"load("return a" .. (" or a"):rep(60000))"#,
    ])
    func aLoopInsideTheLibraryStopsAtTheTimeLimit(_ call: String) throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local ok, e = pcall(function() \(call) end)
            survived = true
            """), output: TestOutput())
        defer { runtime.close() }
        runtime.setTimeout(0.05)
        let start = ms_monotonic()
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(ms_monotonic() - start < 1.5)
        #expect(runtime.pendingError?.kind == .timeout, "\(String(describing: runtime.pendingError))")
        #expect(runtime.pendingError?.message.contains("script.lua:") == true, "\(String(describing: runtime.pendingError))")
        #expect(runtime.pendingError?.message.contains("timeout: the script ran past its time limit") == true,
                "\(String(describing: runtime.pendingError))")
        #expect(runtime.global("survived") == .null)
    }

    /// string.rep of nothing, a huge number of times, copied nothing that many times (seconds
    /// for 1e9, centuries for 2^62): it is "" at once.
    @Test func repeatingNothingIsEmptyAtOnce() throws {
        let (runtime, _) = try loadedRuntime("a, b = string.rep('', 2^62), ('').rep('', 1e9, '')")
        defer { runtime.close() }
        #expect(runtime.global("a") == .string("") && runtime.global("b") == .string(""))
    }
}
