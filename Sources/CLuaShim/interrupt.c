#include "CLuaShimInterrupt.h"
#include <lua.h>
#include <lauxlib.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define MAX_WAKE 8

static atomic_int interruption;          /* 0, a signal number or MS_INTERRUPT_HOST */
static atomic_int signalsReceived;
static atomic_int pending;               /* Lua code started from now on is interrupted */
static _Atomic(lua_State *) running;     /* the state inside lua_pcall, or NULL */
static atomic_int wakeFDs[MAX_WAKE] = {-1, -1, -1, -1, -1, -1, -1, -1};
static pthread_t luaThread;

/* Raises at the next Lua instruction, call or return, and again at every one after it, so a
 * script cannot swallow the error with pcall and go on. C functions are let through (the
 * message handler that adds the traceback is one). */
static void interrupt_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKCALL || ar->event == LUA_HOOKTAILCALL || ar->event == LUA_HOOKRET) {
        lua_getinfo(L, "S", ar);
        if (ar->what[0] == 'C') return;
    }
    lua_getinfo(L, "Sl", ar);
    if (ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: interrupted", ar->short_src, ar->currentline);
    else
        lua_pushstring(L, "interrupted");
    lua_error(L);
}

static void hook(lua_State *L) {
    lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

static void interrupt(int why) {
    int expected = 0;
    atomic_compare_exchange_strong(&interruption, &expected, why);
    atomic_store(&pending, 1);
    for (int i = 0; i < MAX_WAKE; i++) {
        int fd = atomic_load(&wakeFDs[i]);
        if (fd >= 0) {
            char byte = 1;
            ssize_t n = write(fd, &byte, 1);
            (void)n; /* a full pipe already wakes its reader */
        }
    }
    lua_State *L = atomic_load(&running);
    if (L) hook(L);
}

static void on_signal(int sig) {
    int saved = errno;
    if (!pthread_equal(pthread_self(), luaThread)) {
        /* Only the Lua thread may touch its state: hand the signal over. */
        pthread_kill(luaThread, sig);
        errno = saved;
        return;
    }
    if (atomic_fetch_add(&signalsReceived, 1) > 0) {
        /* The second one: the default action, once this handler returns. */
        signal(sig, SIG_DFL);
        raise(sig);
        errno = saved;
        return;
    }
    interrupt(sig);
    errno = saved;
}

int ms_interrupt_install(void) {
    luaThread = pthread_self();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    /* A parent may have left them blocked (or ignored, handled above): they must arrive. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &signals, NULL) == 0 ? 0 : -1;
}

int ms_interrupt_addwake(int fd) {
    for (int i = 0; i < MAX_WAKE; i++) {
        int expected = -1;
        if (atomic_compare_exchange_strong(&wakeFDs[i], &expected, fd)) return 0;
    }
    return -1;
}

void ms_interrupt_removewake(int fd) {
    for (int i = 0; i < MAX_WAKE; i++) {
        int expected = fd;
        atomic_compare_exchange_strong(&wakeFDs[i], &expected, -1);
    }
}

int ms_interruption(void) { return atomic_load(&interruption); }

int ms_interrupt_pending(void) { return atomic_load(&pending); }

void ms_interrupt_request(void) { interrupt(MS_INTERRUPT_HOST); }

void ms_interrupt_disarm(void) { atomic_store(&pending, 0); }

void ms_interrupt_reset(void) {
    atomic_store(&pending, 0);
    atomic_store(&interruption, 0);
    atomic_store(&signalsReceived, 0);
}

lua_State *ms_interrupt_enter(lua_State *L) {
    lua_State *previous = atomic_exchange(&running, L);
    /* After publishing L: a signal from now on hooks it; one before is seen here. */
    if (atomic_load(&pending)) hook(L);
    else if (lua_gethook(L) == interrupt_hook) lua_sethook(L, NULL, 0, 0);
    return previous;
}

void ms_interrupt_leave(lua_State *previous) {
    atomic_store(&running, previous);
    /* Interrupted inside (a coroutine, a callback): the code around it stops too. */
    if (previous && atomic_load(&pending)) hook(previous);
}

void ms_interrupt_rehook(lua_State *L) {
    if (atomic_load(&pending)) hook(L);
}

/* Coroutines: a hook belongs to one Lua thread, so the state to interrupt while a coroutine
 * runs is the coroutine's. coroutine.resume and the functions coroutine.wrap makes are
 * wrapped to mark it for the time it runs. The original runs under lua_pcall, so that the
 * mark is undone on every path, and its error (a bad argument) raised again after. */
static int run_marked(lua_State *L, lua_State *co) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_State *previous = co ? ms_interrupt_enter(co) : NULL;
    int status = lua_pcall(L, n, LUA_MULTRET, 0);
    if (co) ms_interrupt_leave(previous);
    if (status != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

static int marked_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    if (!co) return luaL_typeerror(L, 1, "thread");  /* named as the original would be */
    return run_marked(L, co);
}

static int marked_wrapped(lua_State *L) {
    return run_marked(L, lua_tothread(L, lua_upvalueindex(2)));
}

static int marked_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);                 /* the original wrap: errors are its own */
    lua_getupvalue(L, -1, 1);          /* the thread it resumes */
    lua_pushcclosure(L, marked_wrapped, 2);
    return 1;
}

void ms_interrupt_trackcoroutines(lua_State *L) {
    if (lua_getglobal(L, "coroutine") != LUA_TTABLE) { lua_pop(L, 1); return; }
    if (lua_getfield(L, -1, "resume") == LUA_TFUNCTION) {
        lua_pushcclosure(L, marked_resume, 1);
        lua_setfield(L, -2, "resume");
    } else lua_pop(L, 1);
    if (lua_getfield(L, -1, "wrap") == LUA_TFUNCTION) {
        lua_pushcclosure(L, marked_wrap, 1);
        lua_setfield(L, -2, "wrap");
    } else lua_pop(L, 1);
    lua_pop(L, 1);
}
