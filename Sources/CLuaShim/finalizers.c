/* Finalizers run as ordinary protected calls under the limits (see CLuaShimFinalizers.h). */
#include "CLuaShim.h"
#include "CLuaShimFinalizers.h"
#include "extra.h"
#include <lauxlib.h>
#include <lualib.h>

/* __newindex of a view: the error names the script's line. */
static int refuse_change(lua_State *L) {
    luaL_where(L, 1);
    lua_pushliteral(L, "cannot change a metatable of the host");
    lua_concat(L, 2);
    return lua_error(L);
}

void ms_protectmetatable(lua_State *L) {
    int mt = lua_gettop(L);
    lua_createtable(L, 0, 0);          /* the view */
    lua_createtable(L, 0, 3);          /* its metatable */
    lua_pushvalue(L, mt);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, refuse_change);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_pushliteral(L, "__metatable");
    lua_insert(L, -2);
    lua_rawset(L, mt);
}

/* The C finalizer of a sentinel: queues the object it stands for, if it is still its sentinel
 * (a later setmetatable with __gc made a new one). Runs with hooks off, inside the collector:
 * it only appends to a table. */
static int sentinel_gc(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    if (lua_getiuservalue(L, 1, 1) == LUA_TNONE) return 0;           /* 2: the object */
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerSentinels);         /* 3 */
    lua_pushvalue(L, 2);
    lua_rawget(L, 3);
    if (!lua_rawequal(L, -1, 1)) return 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerQueue);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, ++e->finalizerTail);
    return 0;
}

/* Ties a new sentinel to the object at `index`. */
static void add_sentinel(lua_State *L, int index) {
    ms_Extra *e = ms_extra(L);
    index = lua_absindex(L, index);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerSentinels);
    lua_pushvalue(L, index);
    lua_newuserdatauv(L, 0, 1);
    lua_pushvalue(L, index);
    lua_setiuservalue(L, -2, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerMeta);
    lua_setmetatable(L, -2);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* setmetatable (upvalue 2 false) and debug.setmetatable (true); upvalue 1 is the original. */
static int deferring_setmetatable(lua_State *L) {
    int debug = lua_toboolean(L, lua_upvalueindex(2));
    lua_settop(L, 2);
    int mtType = lua_type(L, 2);
    luaL_argexpected(L, mtType == LUA_TNIL || mtType == LUA_TTABLE, 2, "nil or table");
    if (!debug) {
        luaL_checktype(L, 1, LUA_TTABLE);
        if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
            return luaL_error(L, "cannot change a protected metatable");
    } else if (lua_type(L, 1) == LUA_TUSERDATA) {
        return luaL_error(L, "debug.setmetatable: cannot change the metatable of a host object (userdata)");
    }
    int gc = LUA_TNIL;
    if (mtType == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        gc = lua_rawget(L, 2);
    } else lua_pushnil(L);
    /* 3: the __gc, left out of mt while the original runs, so the object is not marked */
    if (gc != LUA_TNIL) {
        lua_pushliteral(L, "__gc");
        lua_pushnil(L);
        lua_rawset(L, 2);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    int status = lua_pcall(L, 2, 1, 0);
    if (gc != LUA_TNIL) {
        lua_pushliteral(L, "__gc");
        lua_pushvalue(L, 3);
        lua_rawset(L, 2);
    }
    if (status != LUA_OK) return lua_error(L);
    if (gc != LUA_TNIL && lua_type(L, 1) == LUA_TTABLE) add_sentinel(L, 1);
    return 1;
}

static int viewing_getmetatable(lua_State *L) {
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) { lua_pushnil(L); return 1; }
    lua_pushliteral(L, "__metatable");
    if (lua_rawget(L, -2) == LUA_TTABLE && lua_getmetatable(L, -1)) {
        lua_pushliteral(L, "__newindex");
        lua_rawget(L, -2);
        if (lua_tocfunction(L, -1) == refuse_change) { lua_pop(L, 2); return 1; } /* the view */
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    return 1;
}

static int guarded_sethook(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    if (e->deadline > 0 || ms_state_stopped(L) || ms_interrupt_pending())
        return luaL_error(L, "debug.sethook is not available while a time limit is set (it would replace the limit's hook)");
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

static void wrap(lua_State *L, int table, const char *name, lua_CFunction f, int debug) {
    table = lua_absindex(L, table);
    if (lua_getfield(L, table, name) != LUA_TFUNCTION) { lua_pop(L, 1); return; }
    lua_pushboolean(L, debug);
    lua_pushcclosure(L, f, 2);
    lua_setfield(L, table, name);
}

void ms_finalizers_install(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    lua_createtable(L, 0, 0);                    /* object -> its sentinel, keys weak */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    e->finalizerSentinels = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 0);
    e->finalizerQueue = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, sentinel_gc);
    lua_setfield(L, -2, "__gc");
    e->finalizerMeta = luaL_ref(L, LUA_REGISTRYINDEX);

    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    wrap(L, -1, "setmetatable", deferring_setmetatable, 0);
    if (lua_getfield(L, -1, "debug") == LUA_TTABLE) {
        wrap(L, -1, "setmetatable", deferring_setmetatable, 1);
        wrap(L, -1, "getmetatable", viewing_getmetatable, 0);
        wrap(L, -1, "sethook", guarded_sethook, 0);
    }
    lua_pop(L, 2);
    if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TTABLE) ms_protectmetatable(L);
    lua_pop(L, 1);
}

/* Runs the queued finalizers, protected (ms_runfinalizers). */
static int drain(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerQueue);      /* 1 */
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->finalizerSentinels);  /* 2 */
    lua_pushcfunction(L, ms_traceback);                        /* 3 */
    while (e->finalizerHead < e->finalizerTail) {
        lua_Integer i = ++e->finalizerHead;
        lua_rawgeti(L, 1, i);                                  /* 4: the object */
        lua_pushnil(L);
        lua_rawseti(L, 1, i);
        lua_pushvalue(L, 4);
        lua_pushnil(L);
        lua_rawset(L, 2);
        /* Its __gc now, as Lua would look it up: raw, in its current metatable. */
        if (lua_getmetatable(L, 4)) {
            lua_pushliteral(L, "__gc");
            lua_rawget(L, -2);
            if (!lua_isnil(L, -1)) {
                lua_pushvalue(L, 4);
                if (lua_pcall(L, 1, 0, 3) != LUA_OK) {
                    if (ms_state_stopped(L) || ms_interrupt_pending()) return lua_error(L);
                }
            }
        }
        lua_settop(L, 3);
    }
    e->finalizerHead = e->finalizerTail = 0;
    return 0;
}

int ms_runfinalizers(lua_State *L, int status) {
    ms_Extra *e = ms_extra(L);
    if (!lua_checkstack(L, 3)) return status; /* at the next call */
    lua_pushcfunction(L, drain);
    int drained = lua_pcall(L, 0, 0, 0);
    if (drained == LUA_OK) return status;
    if (status != LUA_OK) { lua_pop(L, 1); return status; } /* the call's own error comes first */
    (void)e;
    return drained; /* the error above the call's results */
}
