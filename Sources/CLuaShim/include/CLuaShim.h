/* The one place where Lua's longjmp meets Swift.
 *
 * Swift functions exposed to Lua have the type ms_SwiftFunction. They never raise:
 * they return the number of results they pushed, or MS_RAISE after pushing an error
 * message. The trampoline calls them and, once they have returned, raises the error
 * with lua_error, so the longjmp never crosses a Swift frame. */
#ifndef MOTIONSCRIPT_CLUASHIM_H
#define MOTIONSCRIPT_CLUASHIM_H

#include <stddef.h>
#include "CLuaShimInterrupt.h"
#include "CLuaShimStdio.h"
#include "CLuaShimBridge.h"
#include "CLuaShimFinalizers.h"
#include "CLuaShimBounded.h"
#include "CLuaShimRegularFiles.h"

struct lua_State;
typedef int (*ms_SwiftFunction)(struct lua_State *L);

#define MS_RAISE (-1)

/* Pushes a Lua C closure that calls `f` through the trampoline. `nup` values on
 * the stack become upvalues 2...nup+1 (upvalue 1 holds `f`). */
void ms_pushswiftclosure(struct lua_State *L, ms_SwiftFunction f, int nup);

/* Creates a state with the capped allocator and the timeout hook installed.
 * limit = 0 means no memory limit. Returns NULL when out of memory. */
struct lua_State *ms_newstate(size_t memoryLimit);
size_t ms_memoryused(struct lua_State *L);

/* Scripts that run past the deadline (CLOCK_MONOTONIC seconds, 0 = none) raise
 * "timeout" from inside Lua, where the error unwinds only Lua frames, and from then on at
 * every instruction (see MS_STOP_TIMEOUT), until a new deadline (a new stretch) is set. */
void ms_setdeadline(struct lua_State *L, double monotonicSeconds);
/* Where the state keeps its deadline (the one copy): for its owner to read without a call, on
 * the thread that runs the state, until ms_closestate frees it. */
const double *ms_deadlineslot(struct lua_State *L);
double ms_monotonic(void);
void ms_closestate(struct lua_State *L);
int ms_timedout(struct lua_State *L);

/* lua_pcall for running Lua code from Swift: the memory cap applies only inside. */
int ms_pcalllua(struct lua_State *L, int nargs, int nresults, int msgh);

/* The Swift object that owns the state, for bindings to find it. */
void ms_setowner(struct lua_State *L, void *owner);
void *ms_owner(struct lua_State *L);
size_t ms_memorylimit(struct lua_State *L);

/* The message handler used with lua_pcall: appends a traceback. */
int ms_traceback(struct lua_State *L);

/* Bytes of the C heap in use (mallinfo2().uordblks), for leak checks. */
size_t ms_heapinuse(void);

/* Whether the state is over its memory cap after a full collection (the trampoline raises
 * "not enough memory" then; callers outside a binding can check this themselves). */
int ms_overcap(struct lua_State *L);

/* Adds (or, negative, removes) bytes Swift holds for the script to the state's memory count. */
void ms_charge(struct lua_State *L, long long bytes);

/* Bytes of native stack left on the calling thread ((size_t)-1 when unknown). */
size_t ms_stackleft(void);
/* The calling thread's whole stack, in bytes ((size_t)-1 when unknown). */
size_t ms_stacksize(void);

#endif
