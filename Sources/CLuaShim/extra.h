/* Per-state bookkeeping of the shim, reached through lua_getextraspace (private to the shim). */
#ifndef MOTIONSCRIPT_CLUASHIM_EXTRA_H
#define MOTIONSCRIPT_CLUASHIM_EXTRA_H

#include <stdatomic.h>
#include <stddef.h>
#include <lua.h>
#include "CLuaShimBridge.h"
#include "CLuaShimInterrupt.h"
#include "pool.h"

typedef struct {
    size_t used;
    size_t limit;
    int inSwift;       /* > 0 while Swift runs: allocations must not fail */
    void *owner;       /* the Swift runtime that owns the state */
    atomic_int stop;   /* 0, or why this state is stopped (MS_STOP_*); any thread may set it */
    double deadline;   /* CLOCK_MONOTONIC seconds past which the state stops; 0: none */
    char stopReason[128]; /* MS_STOP_HOST: what the host said (set on the Lua thread) */
    int keys[MS_KEY_COUNT]; /* registry references of the bridge's interned strings */
    int gestureMetatable;   /* registry reference of the gesture values' metatable */
    ms_Pool pool;           /* the state's small blocks */
} ms_Extra;

static inline ms_Extra *ms_extra(lua_State *L) { return *(ms_Extra **)lua_getextraspace(L); }

/* ms_pcalllua (see CLuaShim.h): the memory cap applies, and an interruption reaches, only the
 * Lua code run inside. */
static inline int ms_pcall_capped(lua_State *L, ms_Extra *e, int nargs, int nresults, int msgh) {
    int saved = e->inSwift;
    e->inSwift = 0;
    lua_State *outer = ms_interrupt_enter(L);
    int status = lua_pcall(L, nargs, nresults, msgh);
    ms_interrupt_leave(outer);
    e->inSwift = saved;
    return status;
}

#endif
