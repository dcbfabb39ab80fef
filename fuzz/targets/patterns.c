/* The interruptible pattern matcher (Sources/CLuaShim/patterns.c) against Lua's own: both run on
 * the same subject, pattern and arguments, and every result and error must be the same. The
 * input: byte 0 picks the call (find, plain find, match, gmatch, gsub with a string, a table or a
 * function), byte 1 the initial position (-8…), byte 2 the subject's length; then the subject,
 * then the pattern. The copy's step check (ms_checkstop) is stubbed to give up after 10^6 steps:
 * the stock one, the same algorithm, is then not run (it would take as long, unstoppably). */
#include "CLuaShimBounded.h"
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;

void ms_checkstop(lua_State *L) {
    if (++checks > 100) luaL_error(L, "fuzz: step budget spent");
}

static lua_State *L;

/* Runs `source` (a function of subject, pattern, init, op returning a string) with the library
 * table `lib` as its first upvalue (_ENV.string). */
static const char *runner =
    "local lib, s, p, init, op = ...\n"
    "local function show(ok, ...)\n"
    "  local t = {tostring(ok)}\n"
    "  for i = 1, select('#', ...) do t[#t + 1] = type((select(i, ...))) .. ':' .. tostring((select(i, ...))) end\n"
    "  return table.concat(t, '|')\n"
    "end\n"
    "if op == 0 then return show(pcall(lib.find, s, p, init))\n"
    "elseif op == 1 then return show(pcall(lib.find, s, p, init, true))\n"
    "elseif op == 2 then return show(pcall(lib.match, s, p, init))\n"
    "elseif op == 3 then return show(pcall(function() local r = {} for a, b in lib.gmatch(s, p, init) do r[#r + 1] = tostring(a) .. ',' .. tostring(b) end return table.concat(r, ';') end))\n"
    "elseif op == 4 then return show(pcall(lib.gsub, s, p, '<%0%1>', init))\n"
    "elseif op == 5 then return show(pcall(lib.gsub, s, p, {a = 'A', [''] = 'E'}))\n"
    "else return show(pcall(lib.gsub, s, p, function(a, b) return b and tostring(b) or nil end, init)) end\n";

static int stockLib, boundedLib, runnerRef;

static void setup(void) {
    L = luaL_newstate();
    luaL_openlibs(L);
    lua_getglobal(L, "string");
    stockLib = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 4);
    ms_bounded_patterns(L, -1);
    boundedLib = luaL_ref(L, LUA_REGISTRYINDEX);
    if (luaL_loadstring(L, runner) != LUA_OK) abort();
    runnerRef = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* The runner's result with `lib`, or NULL when the copy gave up (its step budget). */
static char *run(int lib, const char *s, size_t ls, const char *p, size_t lp, int init, int op) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, runnerRef);
    lua_rawgeti(L, LUA_REGISTRYINDEX, lib);
    lua_pushlstring(L, s, ls);
    lua_pushlstring(L, p, lp);
    lua_pushinteger(L, init);
    lua_pushinteger(L, op);
    checks = 0;
    if (lua_pcall(L, 5, 1, 0) != LUA_OK) abort();
    size_t n;
    const char *text = lua_tolstring(L, -1, &n);
    char *copy = strstr(text, "fuzz: step budget spent") ? NULL : strndup(text, n);
    lua_pop(L, 1);
    return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!L) setup();
    if (size < 3) return 0;
    int op = data[0] % 7;
    int init = (int)(data[1] % 24) - 8;
    size_t rest = size - 3;
    size_t ls = data[2] % 65;
    if (ls > rest) ls = rest;
    const char *s = (const char *)data + 3;
    const char *p = s + ls;
    size_t lp = rest - ls;
    if (lp > 64) lp = 64;
    char *mine = run(boundedLib, s, ls, p, lp, init, op);
    if (!mine) return 0;
    char *theirs = run(stockLib, s, ls, p, lp, init, op);
    if (strcmp(mine, theirs) != 0) {
        fprintf(stderr, "differ:\n  bounded: %s\n  stock:   %s\n", mine, theirs);
        abort();
    }
    free(mine);
    free(theirs);
    lua_gc(L, LUA_GCSTEP, 0);
    return 0;
}
