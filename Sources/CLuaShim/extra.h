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
    /* CLOCK_MONOTONIC seconds past which the state stops; 0: none. The state's only copy of its
     * time limit: written by ms_setdeadline and read by the hooks, both on the thread that runs
     * the state, and by its Swift owner there (ms_deadlineslot). Another thread never touches
     * it: a watchdog stops the state through `stop` (ms_state_expire). */
    double deadline;
    /* A watchdog's thread stops the state at its deadline (ms_state_watch): no hook is needed
     * while it runs within its limit. `tid`: the kernel's id of the thread that runs its Lua
     * code, which the watchdog signals. */
    atomic_int watched;
    atomic_int tid;
    char stopReason[128]; /* MS_STOP_HOST: what the host said (set on the Lua thread) */
    int keys[MS_KEY_COUNT]; /* registry references of the bridge's interned strings */
    int metatables[MS_METATABLE_COUNT]; /* registry references of the host's metatables */
    ms_Pool pool;           /* the state's small blocks */
    int depth;              /* calls into the state from the host under way (ms_pcalllua) */
    /* Deferred finalizers (finalizers.c): registry references, and the queue's bounds. */
    int finalizerSentinels, finalizerQueue, finalizerMeta;
    lua_Integer finalizerHead, finalizerTail;
} ms_Extra;

static inline ms_Extra *ms_extra(lua_State *L) { return *(ms_Extra **)lua_getextraspace(L); }

/* Runs the finalizers the collector queued, protected, under the limits (finalizers.c). Returns
 * `status`, or, when the call succeeded and a finalizer was stopped (time limit, interruption),
 * that error status with its error object pushed above the call's results. */
int ms_runfinalizers(lua_State *L, int status);

/* ms_pcalllua (see CLuaShim.h): the memory cap applies, and an interruption reaches, only the
 * Lua code run inside. Once the outermost call into the state returns, queued finalizers run. */
static inline int ms_pcall_capped(lua_State *L, ms_Extra *e, int nargs, int nresults, int msgh) {
    int saved = e->inSwift;
    e->inSwift = 0;
    lua_State *outer = ms_interrupt_enter(L);
    e->depth++;
    int status = lua_pcall(L, nargs, nresults, msgh);
    if (--e->depth == 0 && e->finalizerHead < e->finalizerTail) status = ms_runfinalizers(L, status);
    ms_interrupt_leave(outer);
    e->inSwift = saved;
    return status;
}

#endif
