#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np */
#endif
#include "CLuaShim.h"
#include <lua.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <malloc.h>
#include <pthread.h>

#include "extra.h"

static ms_Extra *extra(lua_State *L) { return ms_extra(L); }

/* Percent of heap growth between minor collections (Lua's default: 20); see ms_newstate. */
#define MS_GC_MINOR_MULTIPLIER 40

static int over_cap(lua_State *L);
static int raise_over_cap(lua_State *L);

static int trampoline(lua_State *L) {
    ms_SwiftFunction f = (ms_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    ms_Extra *e = extra(L);
    e->inSwift++;
    int n = f(L);
    e->inSwift--;
    if (n < 0) return lua_error(L); /* Swift has returned: safe to unwind. */
    if (over_cap(L)) return raise_over_cap(L);
    return n;
}

void ms_pushswiftclosure(lua_State *L, ms_SwiftFunction f, int nup) {
    lua_pushlightuserdata(L, (void *)f);
    lua_insert(L, -(nup + 1));
    lua_pushcclosure(L, trampoline, nup + 1);
}

/* The memory cap applies to Lua code only: while Swift runs, an allocation failure
 * would raise through Swift frames, so it is allowed to go over and the next
 * allocation made by Lua code fails instead. */
static inline int refused(const ms_Extra *e, size_t grown) {
    return e->limit && e->inSwift == 0 && e->used + grown > e->limit;
}

/* Each case on its own path, a new block first: a pointer event's table and node array are
 * made, and freed, by every event a callback receives (with the frees of the empty arrays,
 * NULL with size 0, that come with them: six calls an event). */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    ms_Extra *e = (ms_Extra *)ud;
    if (ptr == NULL) { /* a new block: osize tells its type, not a size */
        if (nsize == 0 || refused(e, nsize)) return NULL;
        void *p = ms_pool_realloc(&e->pool, NULL, 0, nsize);
        if (p) e->used += nsize;
        return p;
    }
    if (nsize == 0) {
        ms_pool_free(&e->pool, ptr, osize);
        e->used -= osize;
        return NULL;
    }
    if (nsize > osize && refused(e, nsize - osize)) return NULL;
    void *p = ms_pool_realloc(&e->pool, ptr, osize, nsize);
    if (p) e->used = e->used - osize + nsize;
    return p;
}

double ms_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

lua_State *ms_newstate(size_t memoryLimit) {
    ms_Extra *e = calloc(1, sizeof(ms_Extra));
    if (!e) return NULL;
    e->limit = memoryLimit;
    e->inSwift = 1; /* the creator is Swift; only Lua code run through ms_pcalllua is capped */
    lua_State *L = lua_newstate(capped_alloc, e);
    if (!L) { ms_pool_destroy(&e->pool); free(e); return NULL; }
    *(ms_Extra **)lua_getextraspace(L) = e;
    ms_bridge_init(L);
    /* Generational collection, as the standalone lua interpreter runs: the per-event tables
     * die young, and a minor collection does not walk the script's whole heap for them. A
     * minor collection every 40% of growth rather than Lua's 20%: its fixed part (the atomic
     * phase: the thread's stack, the roots) comes half as often, at the price of at most 20%
     * more heap in young garbage. It must stay below the major multiplier (100%), above which
     * each growth would trigger a major collection instead. */
    lua_gc(L, LUA_GCGEN, MS_GC_MINOR_MULTIPLIER, 0);
    return L;
}

size_t ms_memoryused(lua_State *L) { return extra(L)->used; }

/* The ms_Extra block is freed by the Swift owner after lua_close, through this. */
void ms_closestate(lua_State *L) {
    ms_Extra *e = extra(L);
    lua_close(L);
    ms_pool_destroy(&e->pool);
    free(e);
}

int ms_traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    /* An error carried out of a callback has its traceback already. */
    if (strstr(msg, "\nstack traceback:") != NULL) return 1;
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int ms_pcalllua(lua_State *L, int nargs, int nresults, int msgh) {
    return ms_pcall_capped(L, extra(L), nargs, nresults, msgh);
}

void ms_setowner(lua_State *L, void *owner) { extra(L)->owner = owner; }
void *ms_owner(lua_State *L) { return extra(L)->owner; }
size_t ms_memorylimit(lua_State *L) { return extra(L)->limit; }

size_t ms_heapinuse(void) { return mallinfo2().uordblks; }

/* What Swift allocated for the script while it ran (a table it pushed, a copy of a string) is
 * not refused at the time, since a refusal would raise through Swift frames. It is counted all
 * the same, and checked here once Swift has returned: a state over its cap after a full
 * collection raises "not enough memory" in the calling script. So no sequence of calls can
 * grow a capped state further than one call's worth past its limit. */
static int over_cap(lua_State *L) {
    ms_Extra *e = extra(L);
    if (!e->limit || e->inSwift > 0 || e->used <= e->limit) return 0;
    e->inSwift++;
    lua_gc(L, LUA_GCCOLLECT);
    e->inSwift--;
    return e->used > e->limit;
}

static int raise_over_cap(lua_State *L) {
    luaL_where(L, 1);
    lua_pushfstring(L, "not enough memory (the Lua memory limit is %I bytes)", (lua_Integer)extra(L)->limit);
    lua_concat(L, 2);
    return lua_error(L);
}

int ms_overcap(lua_State *L) { return over_cap(L); }

/* Bytes of native stack left below the caller on this thread: deep pipelines check it before
 * going deeper, so that recursion a script builds ends in a Lua error, never a crash. */
static __thread char *stack_low;
static __thread size_t stack_size;
static __thread int stack_known;

/* Once per thread, out of line: ms_stacklow runs on every event and stays a few
 * instructions without this call's frame. */
__attribute__((noinline)) static void learn_stack(void) {
    pthread_attr_t attributes;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        pthread_attr_getstack(&attributes, &low, &size);
        pthread_attr_destroy(&attributes);
    }
    stack_low = (char *)low;
    stack_size = size;
    stack_known = 1;
}

static inline void find_stack(void) {
    if (!stack_known) learn_stack();
}

size_t ms_stacksize(void) {
    find_stack();
    return stack_low ? stack_size : (size_t)-1;
}

size_t ms_stackleft(void) {
    find_stack();
    char *here = (char *)__builtin_frame_address(0);
    if (stack_low == NULL || here < stack_low) return (size_t)-1;
    return (size_t)(here - stack_low);
}

int ms_stacklow(size_t reserve) {
    find_stack();
    if (stack_low == NULL) return 0;
    char *here = (char *)__builtin_frame_address(0);
    size_t quarter = stack_size / 4;
    return here >= stack_low && (size_t)(here - stack_low) < (reserve < quarter ? reserve : quarter);
}

/* Swift memory a script's objects hold (the Swift side of a stream or a subscription) is
 * charged to the state's count, and released when they go, so the cap covers it too. */
void ms_charge(lua_State *L, long long bytes) {
    ms_Extra *e = extra(L);
    if (bytes < 0 && (size_t)(-bytes) > e->used) e->used = 0;
    else e->used += (size_t)bytes;
}
