/* Per-state bookkeeping of the shim, reached through lua_getextraspace (private to the shim). */
#ifndef MOTIONSCRIPT_CLUASHIM_EXTRA_H
#define MOTIONSCRIPT_CLUASHIM_EXTRA_H

#include <stddef.h>
#include <lua.h>
#include "CLuaShimBridge.h"
#include "pool.h"

typedef struct {
    size_t used;
    size_t limit;
    int inSwift;       /* > 0 while Swift runs: allocations must not fail */
    void *owner;       /* the Swift runtime that owns the state */
    int timedOut;
    double deadline;
    int keys[MS_KEY_COUNT]; /* registry references of the bridge's interned strings */
    ms_Pool pool;           /* the state's small blocks */
} ms_Extra;

static inline ms_Extra *ms_extra(lua_State *L) { return *(ms_Extra **)lua_getextraspace(L); }

#endif
