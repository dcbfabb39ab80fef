/* Lua 5.4 for Swift: the headers, and static inline wrappers for the function-like
 * macros Swift cannot import (lua_pcall, LUA_REGISTRYINDEX, lua_upvalueindex, ...). */
#ifndef MOTIONSCRIPT_CLUA_SHIM_H
#define MOTIONSCRIPT_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

static inline int ms_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int ms_upvalueindex(int i) { return lua_upvalueindex(i); }

static inline int ms_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void ms_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void ms_newtable(lua_State *L) { lua_newtable(L); }
static inline void ms_insert(lua_State *L, int idx) { lua_insert(L, idx); }
static inline void ms_remove(lua_State *L, int idx) { lua_remove(L, idx); }
static inline void ms_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline void ms_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int ms_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }
static inline int ms_isfunction(lua_State *L, int idx) { return lua_isfunction(L, idx); }
static inline int ms_istable(lua_State *L, int idx) { return lua_istable(L, idx); }
static inline const char *ms_tostring(lua_State *L, int idx) { return lua_tolstring(L, idx, NULL); }
static inline lua_Number ms_tonumber(lua_State *L, int idx, int *isnum) { return lua_tonumberx(L, idx, isnum); }
static inline lua_Integer ms_tointeger(lua_State *L, int idx, int *isnum) { return lua_tointegerx(L, idx, isnum); }
static inline void *ms_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }
static inline int ms_getmetatable_named(lua_State *L, const char *name) {
    return lua_getfield(L, LUA_REGISTRYINDEX, name);
}
static inline const char *ms_typename_at(lua_State *L, int idx) { return luaL_typename(L, idx); }

#endif
