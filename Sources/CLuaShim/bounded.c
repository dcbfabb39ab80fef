/* string.rep and load, bounded (see CLuaShimBounded.h), and the installation of every bounded
 * function. `load` is Lua 5.4.4's luaB_load (lbaselib.c) but for its reader, which hands the
 * parser the chunk in pieces and checks the state between them: a chunk can parse in quadratic
 * time (a long `a or a or …` chain), and the parser calls nothing else that could be stopped.
 *
 * The code of load_aux and load below, from lbaselib.c, is:
 *
 * Copyright (C) 1994-2022 Lua.org, PUC-Rio.
 *
 * Permission is hereby granted, free of charge, to any person obtaining
 * a copy of this software and associated documentation files (the
 * "Software"), to deal in the Software without restriction, including
 * without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to
 * the following conditions:
 *
 * The above copyright notice and this permission notice shall be
 * included in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
 * EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 * MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
 * IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
 * CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 * TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
 * SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
#include "CLuaShimBounded.h"
#include "bounded.h"
#include "checkstop.h"
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Code here is copied from Lua 5.4.4's sources (the comment at the top says which), standing in for
 * the linked library's own functions: it must give their results and errors. Built against another
 * release it could differ from the library without a word, so the build stops instead. */
#if !defined(LUA_VERSION_RELEASE_NUM) || LUA_VERSION_RELEASE_NUM != 50404
#error "Sources/CLuaShim/bounded.c copies code of Lua 5.4.4 (LUA_VERSION_RELEASE_NUM 50404), but the lua.h found (pkg-config lua5.4) is another release: compare the copy with that release's sources, update it, then this check"
#endif

/* string.rep with an empty string and an empty separator copies nothing n times: for n near
 * 2^63 the stock loop runs for ever. Its result is "", whatever n; every other case (each
 * bounded by the memory cap) is the stock function's, upvalue 1. */
static int bounded_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0 && l == 0 && lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    int args = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, args, 1);
    return 1;
}

/* What the parser gets at a time: small enough that a piece parses in a few milliseconds
 * even when each token costs time in the size of the chunk so far. */
#define PIECE 256

/* Slot 5 keeps the reader function's last string while it is parsed (as lbaselib.c does). */
#define RESERVEDSLOT 5

typedef struct {
    const char *s;    /* what is left of the current string */
    size_t size;
    int function;     /* the chunk comes from a reader function (at stack index 1) */
} Pieces;

static const char *piece_reader(lua_State *L, void *ud, size_t *size) {
    Pieces *p = (Pieces *)ud;
    ms_checkstop(L);
    if (p->size == 0 && p->function) {
        /* generic_reader of lbaselib.c */
        luaL_checkstack(L, 2, "too many nested functions");
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            *size = 0;
            return NULL;
        } else if (!lua_isstring(L, -1))
            luaL_error(L, "reader function must return a string");
        lua_replace(L, RESERVEDSLOT);
        p->s = lua_tolstring(L, RESERVEDSLOT, &p->size);
        if (p->size == 0) { *size = 0; return p->s; } /* an empty string ends the chunk */
    }
    size_t n = p->size < PIECE ? p->size : PIECE;
    const char *piece = p->s;
    p->s += n;
    p->size -= n;
    *size = n;
    return n > 0 ? piece : NULL;
}

int ms_load_aux(lua_State *L, int status, int envidx) {
    if (status == LUA_OK) {
        if (envidx != 0) {  /* 'env' parameter? */
            lua_pushvalue(L, envidx);  /* environment for loaded function */
            if (!lua_setupvalue(L, -2, 1))  /* set it as 1st upvalue */
                lua_pop(L, 1);  /* remove 'env' if not used by previous call */
        }
        return 1;
    } else {  /* error (message is on top of the stack) */
        luaL_pushfail(L);
        lua_insert(L, -2);  /* put before error message */
        return 2;  /* return fail plus error message */
    }
}

static int bounded_load(lua_State *L) {
    int status;
    size_t l;
    const char *s = lua_tolstring(L, 1, &l);
    const char *mode = luaL_optstring(L, 3, "bt");
    int env = (!lua_isnone(L, 4) ? 4 : 0);  /* 'env' index or 0 if no 'env' */
    Pieces pieces = {s, l, 0};
    if (s != NULL) {  /* loading a string? */
        const char *chunkname = luaL_optstring(L, 2, s);
        status = lua_load(L, piece_reader, &pieces, chunkname, mode);
    } else {  /* loading from a reader function */
        const char *chunkname = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, RESERVEDSLOT);  /* create reserved slot */
        pieces.function = 1;
        status = lua_load(L, piece_reader, &pieces, chunkname, mode);
    }
    return ms_load_aux(L, status, env);
}

/* Replaces `name` in the table on top of the stack with `f`, the original as its upvalue. */
static void wrap(lua_State *L, const char *name, lua_CFunction f) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

void ms_bounded_install(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, LUA_STRLIBNAME) == LUA_TTABLE) {
        ms_bounded_patterns(L, -1);
        wrap(L, "rep", bounded_rep);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, -1, LUA_TABLIBNAME) == LUA_TTABLE) ms_bounded_tables(L, -1);
    lua_pop(L, 2);
    lua_pushcfunction(L, bounded_load);
    lua_setglobal(L, "load");
}
