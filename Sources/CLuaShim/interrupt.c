#include "CLuaShim.h"
#include "extra.h"
#include "checkstop.h"
#include <lua.h>
#include <lauxlib.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_WAKE 8

static atomic_int interruption;          /* 0, a signal number or MS_INTERRUPT_HOST */
static atomic_int signalsReceived;
static atomic_int pending;               /* Lua code started from now on is interrupted */
/* The Lua thread inside lua_pcall on this OS thread, or NULL. Per OS thread: the signal handler
 * runs on the thread that runs Lua, and tests run states on several threads at once. Initial-exec:
 * this code is linked into the executable, so the variable is at a fixed offset from the thread
 * pointer (the default model for position-independent code called __tls_get_addr at every Lua
 * call and every deadline set). */
static _Thread_local _Atomic(lua_State *) running __attribute__((tls_model("initial-exec")));
static atomic_int wakeFDs[MAX_WAKE] = {-1, -1, -1, -1, -1, -1, -1, -1};
static pthread_t luaThread;

/* The state's time limit is checked every this many instructions. */
#define DEADLINE_COUNT 10000
#define EVERY_EVENT (LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT)
/* Stopped because the whole process is interrupted (a signal, ms_interrupt_request). */
#define STOP_PROCESS 3

static void stop_hook(lua_State *L, lua_Debug *ar);
static void deadline_hook(lua_State *L, lua_Debug *ar);

/* Async-signal-safe, as lua.c's use of it from a signal handler. */
static void hook(lua_State *L) { lua_sethook(L, stop_hook, EVERY_EVENT, 1); }

/* Why Lua code on thread `L` may not run: its state was stopped (MS_STOP_*), the process was
 * interrupted (STOP_PROCESS), or 0. The state's own reason comes first: it is the more precise. */
static int stopped(lua_State *L) {
    int why = atomic_load(&ms_extra(L)->stop);
    if (why) return why;
    return atomic_load(&pending) ? STOP_PROCESS : 0;
}

/* Gives thread `L` the hook its state calls for now: the stopping one, the time limit's, or
 * none. A hook belongs to one Lua thread, so every thread is given it as it starts running
 * Lua code (ms_interrupt_enter), a coroutine included. A script's own hook (debug.sethook)
 * is kept while no limit needs the place. */
static void apply(lua_State *L) {
    lua_Hook current = lua_gethook(L);
    if (stopped(L)) {
        if (current != stop_hook) hook(L);
        return;
    }
    ms_Extra *e = ms_extra(L);
    /* A watched state's time limit is its watchdog's (ms_state_watch): Lua code runs with no
     * hook until the watchdog stops the state, and its signal hooks it (on_expire). A hook of
     * any kind makes Lua 5.4 trap every instruction, which doubled the cost of Lua code. */
    if (e->deadline > 0 && !atomic_load_explicit(&e->watched, memory_order_relaxed)) {
        if (current == deadline_hook) return;
        lua_sethook(L, deadline_hook, LUA_MASKCOUNT, DEADLINE_COUNT);
    } else if (current == deadline_hook || current == stop_hook) {
        lua_sethook(L, NULL, 0, 0);
    } else return;
    if (stopped(L)) hook(L); /* a signal that came between the check and the change */
}

/* Pushes why the state stopped, after the place (on top). */
static int push_stop(lua_State *L, int why) {
    switch (why) {
    case MS_STOP_TIMEOUT: lua_pushliteral(L, "timeout: the script ran past its time limit"); break;
    case MS_STOP_HOST: lua_pushfstring(L, "interrupted (%s)", ms_extra(L)->stopReason); break;
    default: lua_pushliteral(L, "interrupted"); break;
    }
    lua_concat(L, 2);
    return lua_error(L);
}

/* Raises the error of a stopped state at the script's line. */
static int raise_stop(lua_State *L, lua_Debug *ar, int why) {
    lua_getinfo(L, "Sl", ar);
    if (ar->currentline > 0) lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else lua_pushliteral(L, "");
    return push_stop(L, why);
}

/* Raises at the next Lua instruction, call or return, and again at every one after it, so a
 * script cannot swallow the error with pcall (or coroutine.resume, or coroutine.close) and go
 * on. C functions are let through (the message handler that adds the traceback is one). */
static void stop_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKCALL || ar->event == LUA_HOOKTAILCALL || ar->event == LUA_HOOKRET) {
        lua_getinfo(L, "S", ar);
        if (ar->what[0] == 'C') return;
    }
    int why = stopped(L);
    if (!why) { apply(L); return; } /* disarmed meanwhile (ms_interrupt_disarm) */
    raise_stop(L, ar, why);
}

/* Why the state must stop now (see `stopped`), its deadline included: once past it, the state
 * is stopped for good (MS_STOP_TIMEOUT). 0: it runs on. */
static int stopped_now(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    int why = stopped(L);
    if (why || !(e->deadline > 0 && ms_monotonic() > e->deadline)) return why;
    int expected = 0;
    atomic_compare_exchange_strong(&e->stop, &expected, MS_STOP_TIMEOUT);
    return stopped(L);
}

/* Every DEADLINE_COUNT instructions while the state has a time limit. Once it has passed (or
 * another thread marked the state, ms_state_expire) the state is stopped for good: from then on
 * the stopping hook raises at every instruction, as an interruption does. */
static void deadline_hook(lua_State *L, lua_Debug *ar) {
    int why = stopped_now(L);
    if (!why) return;
    hook(L);
    raise_stop(L, ar, why);
}

_Thread_local unsigned ms_steps;

/* A library function looping in C (CLuaShimBounded.h): what deadline_hook and stop_hook do
 * between instructions, from inside it. The stopping hook is set too, so that the script's
 * next instruction raises again whatever pcall caught this error. */
void ms_checkstop(lua_State *L) {
    int why = stopped_now(L);
    if (!why) return;
    hook(L);
    luaL_where(L, 1);
    push_stop(L, why);
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
    apply(L);
    return previous;
}

void ms_interrupt_leave(lua_State *previous) {
    atomic_store(&running, previous);
    /* Stopped inside (a coroutine, a callback): the code around it stops too. A state stopped
     * inside another's call leaves the caller's state as it was. */
    if (previous) apply(previous);
}

void ms_interrupt_rehook(lua_State *L) { apply(L); }

/* The thread of `e`'s state running Lua code now, if the innermost running one is its. */
static lua_State *running_in(ms_Extra *e) {
    lua_State *r = atomic_load(&running);
    return r && ms_extra(r) == e ? r : NULL;
}

static void setdeadline_changing(lua_State *L, ms_Extra *e) __attribute__((noinline));

void ms_setdeadline(lua_State *L, double deadline) {
    ms_Extra *e = ms_extra(L);
    e->deadline = deadline;
    /* The usual case, a host setting the next call's limit between calls: nothing is stopped and
     * no Lua code runs on this thread, so the hook the limit calls for is given when the call
     * enters Lua (ms_interrupt_enter applies it, as it does a signal's that came meanwhile).
     * The rest is a function of its own, so that this case saves no registers (a daemon sets a
     * deadline for nearly every plugin call). */
    if (__builtin_expect(atomic_load_explicit(&e->stop, memory_order_relaxed) == 0
                         && !atomic_load_explicit(&running, memory_order_relaxed), 1))
        return;
    setdeadline_changing(L, e);
}

/* A stopped state's new stretch, or a deadline set while Lua code runs on this thread. */
static void setdeadline_changing(lua_State *L, ms_Extra *e) {
    int expected = MS_STOP_TIMEOUT;
    atomic_compare_exchange_strong(&e->stop, &expected, 0); /* a new stretch */
    apply(L);
    lua_State *r = running_in(e);
    if (r && r != L) apply(r);
}

const double *ms_deadlineslot(lua_State *L) { return &ms_extra(L)->deadline; }

int ms_timedout(lua_State *L) { return atomic_load(&ms_extra(L)->stop) == MS_STOP_TIMEOUT; }

int ms_state_stopped(lua_State *L) { return atomic_load(&ms_extra(L)->stop); }

void ms_state_interrupt(lua_State *L, const char *reason) {
    ms_Extra *e = ms_extra(L);
    int expected = 0;
    if (atomic_compare_exchange_strong(&e->stop, &expected, MS_STOP_HOST))
        snprintf(e->stopReason, sizeof e->stopReason, "%s", reason ? reason : "stopped by the host");
    apply(L);
    lua_State *r = running_in(e);
    if (r) hook(r);
}

/* The watchdog's signal (ms_state_watch), to the thread running a watched state's Lua code.
 * A real-time signal: none means anything to the kernel, a terminal or another program (unlike
 * SIGUSR1/2, which users and tools send by convention), and a handler is the only way to reach
 * the running thread between two instructions. SIGRTMIN is the first glibc leaves free (it
 * keeps 32 and 33 for threads); +4 stays clear of the lowest ones, which libraries that take
 * "the first free real-time signal" pick, and of SIGRTMAX, which valgrind keeps for itself. */
static int expire_signal(void) { return SIGRTMIN + 4; }

/* On the thread that runs Lua, stopped between two of its instructions (or in C below them):
 * hooks the innermost Lua thread running on it if its state is stopped, as lua.c hooks the
 * running state from its SIGINT handler — lua_sethook is safe there, and only there: from
 * another thread it would walk the thread's call list while that thread changes it. A state
 * stopped further out is hooked when the inner call returns (ms_interrupt_leave). A signal that
 * came late (the call ended, another state runs) finds nothing stopped and does nothing. */
static void on_expire(int sig) {
    (void)sig;
    int saved = errno;
    lua_State *L = atomic_load(&running);
    if (L && stopped(L)) hook(L);
    errno = saved;
}

static pthread_once_t expireOnce = PTHREAD_ONCE_INIT;
static int expireInstalled;

static void install_expire(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_expire;
    sigemptyset(&action.sa_mask);
    /* Interrupted reads and writes go on; ppoll and sleeps return EINTR, which the loops retry. */
    action.sa_flags = SA_RESTART;
    expireInstalled = sigaction(expire_signal(), &action, NULL) == 0;
}

int ms_state_watch(lua_State *L, int watched) {
    ms_Extra *e = ms_extra(L);
    if (watched) {
        pthread_once(&expireOnce, install_expire);
        /* A parent may have left it blocked: it must arrive. (Not blocked anywhere by us, so
         * children, which inherit the mask, see the usual one; exec resets the handler.) */
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, expire_signal());
        if (!expireInstalled || pthread_sigmask(SIG_UNBLOCK, &signals, NULL) != 0) watched = 0;
        else atomic_store(&e->tid, (int)syscall(SYS_gettid));
    }
    atomic_store(&e->watched, watched ? 1 : 0);
    if (!atomic_load(&running)) apply(L);
    return watched ? 1 : 0;
}

int ms_state_watched(lua_State *L) { return atomic_load(&ms_extra(L)->watched); }

void ms_state_expire(lua_State *L) {
    ms_Extra *e = ms_extra(L);
    int expected = 0;
    if (!atomic_compare_exchange_strong(&e->stop, &expected, MS_STOP_TIMEOUT)) return;
    if (!atomic_load(&e->watched)) return; /* its count hook will see it */
    int tid = atomic_load(&e->tid);
    if (tid > 0) syscall(SYS_tgkill, (int)getpid(), tid, expire_signal());
}

/* Coroutines: a hook belongs to one Lua thread, so the thread to interrupt while a coroutine
 * runs is the coroutine's, and it must have its state's hook (a coroutine made before the time
 * limit was set has none). coroutine.resume, coroutine.close (which runs the coroutine's
 * pending __close handlers on it) and the functions coroutine.wrap makes are wrapped to mark it
 * for the time it runs. The original runs under lua_pcall, so that the
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

static int marked_close(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    if (!co) return luaL_typeerror(L, 1, "thread");
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
    if (lua_getfield(L, -1, "close") == LUA_TFUNCTION) {
        lua_pushcclosure(L, marked_close, 1);
        lua_setfield(L, -2, "close");
    } else lua_pop(L, 1);
    if (lua_getfield(L, -1, "wrap") == LUA_TFUNCTION) {
        lua_pushcclosure(L, marked_wrap, 1);
        lua_setfield(L, -2, "wrap");
    } else lua_pop(L, 1);
    lua_pop(L, 1);
}
