/* The per-event bridge (see CLuaShimBridge.h). Keys are pushed from slots at the bottom of the
 * stack or from registry references, made once per state: a copy or an array read, where pushing
 * their bytes would hash them and look the string up every time. Fields are set raw on tables that have no metatable yet, so nothing
 * here can run a metamethod or raise. */
#include "CLuaShim.h"
#include "extra.h"
#include <lauxlib.h>
#include <string.h>

static const char *const spellings[MS_KEY_COUNT] = {
    "id", "phase", "x", "y", "down", "move", "up", "cancel", "device",
};

/* The strings are also left at the bottom of the new state's stack, above a light userdata
 * naming the state: a live pointer event's call, made at top level (nothing of the state's
 * running), copies them from there, a third of the instructions of a registry read. The mark
 * says they are still there: code that resets the stack at top level (lua_settop(L, 0)) or a
 * call from inside a running function (where slot 1 is that function's) does not see it, and
 * the keys come from the registry as before. Nothing else knows the mark, and no script can
 * reach those slots. LUA_MINSTACK slots stay free above them, as Lua leaves a new state. */
#define MS_KEY_SLOT 2 /* the first key's stack index; the mark is at 1 */

void ms_bridge_init(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    lua_checkstack(L, 1 + MS_KEY_COUNT + LUA_MINSTACK);
    lua_pushlightuserdata(L, e);
    for (int k = 0; k < MS_KEY_COUNT; k++) {
        lua_pushstring(L, spellings[k]);
        lua_pushvalue(L, -1);
        e->keys[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

static inline void pushkey(lua_State *L, const ms_Extra *e, int key) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->keys[key]);
}

/* pushkey, from the bottom of the stack when `bottom` (see ms_bridge_init). */
static inline __attribute__((always_inline)) void pushkeyfrom(lua_State *L, const ms_Extra *e, int bottom, int key) {
    if (bottom) lua_pushvalue(L, MS_KEY_SLOT + key);
    else lua_rawgeti(L, LUA_REGISTRYINDEX, e->keys[key]);
}

void ms_pushkey(lua_State *L, int key) { pushkey(L, ms_extra(L), key); }

/* Sets x and y in the table on top of the stack. */
static inline __attribute__((always_inline)) void setxy(lua_State *L, const ms_Extra *e, int bottom, double x, double y) {
    pushkeyfrom(L, e, bottom, MS_KEY_X);
    lua_pushnumber(L, x);
    lua_rawset(L, -3);
    pushkeyfrom(L, e, bottom, MS_KEY_Y);
    lua_pushnumber(L, y);
    lua_rawset(L, -3);
}

/* records: the table's fields, 4 or 5 with `device`: sized for all of them at once, as a fifth
 * key in a table made for four rehashes it (a new node array, the four moved, the old freed). */
static inline __attribute__((always_inline))
void pushpointer(lua_State *L, const ms_Extra *e, int bottom, long long id, int phase, double x, double y,
                 int records) {
    lua_createtable(L, 0, records);
    pushkeyfrom(L, e, bottom, MS_KEY_ID);
    lua_pushinteger(L, (lua_Integer)id);
    lua_rawset(L, -3);
    pushkeyfrom(L, e, bottom, MS_KEY_PHASE);
    pushkeyfrom(L, e, bottom, phase >= MS_KEY_DOWN && phase <= MS_KEY_CANCEL ? phase : MS_KEY_CANCEL);
    lua_rawset(L, -3);
    setxy(L, e, bottom, x, y);
}

void ms_pushpointer(lua_State *L, long long id, int phase, double x, double y) {
    pushpointer(L, ms_extra(L), 0, id, phase, x, y, 4);
}

void ms_pushpoint(lua_State *L, double x, double y) {
    const ms_Extra *e = ms_extra(L);
    lua_createtable(L, 0, 2);
    setxy(L, e, 0, x, y);
}

int ms_callprepare(lua_State *L, int fn, int slots) {
    if (!lua_checkstack(L, slots + 2)) return -1;
    int top = lua_gettop(L);
    lua_pushcfunction(L, ms_traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn);
    return top;
}

int ms_callpointer(lua_State *L, int fn, long long id, int phase, double x, double y,
                   int nresults, int *top) {
    return ms_callpointerfrom(L, fn, id, phase, x, y, LUA_NOREF, LUA_NOREF, nresults, top);
}

/* Sets registry[key] = registry[value] in the table on top of the stack (2 more slots). */
static inline void setref(lua_State *L, int key, int value) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, key);
    lua_rawgeti(L, LUA_REGISTRYINDEX, value);
    lua_rawset(L, -3);
}

void ms_setfieldref(lua_State *L, int key, int value) { setref(L, key, value); }

/* The table is built here through the API rather than by a Lua constructor compiled once per
 * state (`function(cb, id, phase, x, y, device) return cb({...}) end`, one pcall for both): its
 * extra Lua frame and instructions cost more than the key pushes they save, with or without
 * the time limit's count hook, which taxes every VM instruction (measured with callgrind:
 * docs/performance.md). */
static inline __attribute__((always_inline))
int callpointer(lua_State *L, int fn, long long id, int phase, double x, double y, int key, int device,
                int nresults, int *top) {
    /* handler, function, table, key, value; and the results */
    if (!lua_checkstack(L, 5 + (nresults > 0 ? nresults : 0))) return MS_CALL_NOSTACK;
    ms_Extra *e = ms_extra(L);
    int base = lua_gettop(L);
    *top = base;
    lua_pushcfunction(L, ms_traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn);
    int withDevice = key != LUA_NOREF && device != LUA_NOREF;
    int bottom = lua_touserdata(L, 1) == (void *)e;
    pushpointer(L, e, bottom, id, phase, x, y, withDevice ? 5 : 4);
    if (withDevice) {
        if (bottom) { /* the same string as `key`'s: short strings are interned */
            lua_pushvalue(L, MS_KEY_SLOT + MS_KEY_DEVICE);
            lua_rawgeti(L, LUA_REGISTRYINDEX, device);
            lua_rawset(L, -3);
        } else {
            setref(L, key, device);
        }
    }
    return ms_pcall_capped(L, e, 1, nresults, base + 1);
}

int ms_callpointerfrom(lua_State *L, int fn, long long id, int phase, double x, double y,
                       int key, int device, int nresults, int *top) {
    return callpointer(L, fn, id, phase, x, y, key, device, nresults, top);
}

/* Its own copy of the call (inlined, as is the table's making): once per live pointer event,
 * where each function boundary costs its spills and reloads of the event's fields. */
int ms_runpointer(lua_State *L, int fn, long long id, int phase, double x, double y,
                  int key, int device, int *top) {
    int status = callpointer(L, fn, id, phase, x, y, key, device, 0, top);
    if (status == LUA_OK) lua_settop(L, *top);
    return status;
}

int ms_topoint(lua_State *L, int index, double *x, double *y) {
    /* Array entries come out of lua_next as integer keys, which end the search. */
    if (lua_type(L, index) != LUA_TTABLE || !lua_checkstack(L, 2)) return 0;
    index = lua_absindex(L, index);
    int seen = 0; /* bit 1: x, bit 2: y */
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        size_t length;
        const char *key;
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TNUMBER
            || (key = lua_tolstring(L, -2, &length), length != 1)) {
            lua_pop(L, 2);
            return 0;
        }
        if (key[0] == 'x' && !(seen & 1)) { *x = lua_tonumberx(L, -1, NULL); seen |= 1; }
        else if (key[0] == 'y' && !(seen & 2)) { *y = lua_tonumberx(L, -1, NULL); seen |= 2; }
        else { lua_pop(L, 2); return 0; }
        lua_pop(L, 1);
    }
    return seen == 3;
}

void ms_setmetatableslot(lua_State *L, int slot) {
    lua_pushvalue(L, -1);
    ms_extra(L)->metatables[slot] = luaL_ref(L, LUA_REGISTRYINDEX);
}

void *ms_newobject(lua_State *L, size_t size, int slot) {
    void *block = lua_newuserdatauv(L, size, slot == MS_METATABLE_GESTURE ? 0 : 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ms_extra(L)->metatables[slot]);
    lua_setmetatable(L, -2);
    return block;
}

void *ms_testobject(lua_State *L, int index, int slot) {
    void *block = lua_touserdata(L, index);
    if (block == NULL || !lua_getmetatable(L, index)) return NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ms_extra(L)->metatables[slot]);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same ? block : NULL;
}

void *ms_newgesture(lua_State *L, size_t size) { return ms_newobject(L, size, MS_METATABLE_GESTURE); }

void *ms_testgesture(lua_State *L, int index) { return ms_testobject(L, index, MS_METATABLE_GESTURE); }
