/* Interrupting running Lua code, as lua.c does on Ctrl-C: SIGINT or SIGTERM (or the host,
 * e.g. when its output fails) sets a hook on the state running Lua code, and the hook raises
 * "interrupted" from inside Lua, where the error unwinds only Lua frames. A second signal
 * ends the process with the signal's default action.
 *
 * The handler runs only on the thread that installed it (the one running Lua): a signal
 * delivered to another thread is passed on to it with pthread_kill. Everything the handler
 * touches is an atomic or a write(2). */
#ifndef MOTIONSCRIPT_CLUASHIM_INTERRUPT_H
#define MOTIONSCRIPT_CLUASHIM_INTERRUPT_H

struct lua_State;

/* What interrupted the run: 0 nothing yet, a signal number, or MS_INTERRUPT_HOST. */
#define MS_INTERRUPT_HOST (-1)

/* Installs the SIGINT and SIGTERM handlers and unblocks both on the calling thread, which
 * becomes the Lua thread (a parent may have left them ignored or blocked).
 * Returns 0, or -1 with errno set. */
int ms_interrupt_install(void);

/* A descriptor the handler writes one byte to, to wake a poll (a self-pipe). At most 8;
 * returns 0, or -1 when full. Call from the Lua thread. */
int ms_interrupt_addwake(int fd);
void ms_interrupt_removewake(int fd);

/* 0, the signal that interrupted the run, or MS_INTERRUPT_HOST. */
int ms_interruption(void);

/* Whether Lua code started now is interrupted (an interruption not disarmed). */
int ms_interrupt_pending(void);

/* From the Lua thread: interrupt as a signal would (wakes, hooks), with MS_INTERRUPT_HOST. */
void ms_interrupt_request(void);

/* Lets Lua code run again after an interruption (the reason stays): the host has stopped
 * reading and hands the scripts one last frame that cancels the pointers still down. */
void ms_interrupt_disarm(void);

/* Forgets an interruption (tests running several sessions in one process). */
void ms_interrupt_reset(void);

/* Around lua_pcall (ms_pcalllua does this): marks `L` as the state running Lua code and,
 * when an interruption already happened, hooks it at once. Returns the previous state,
 * to hand back to ms_interrupt_leave. */
struct lua_State *ms_interrupt_enter(struct lua_State *L);
void ms_interrupt_leave(struct lua_State *previous);

/* Wraps coroutine.resume, coroutine.close and coroutine.wrap so that a coroutine running when the
 * interruption comes is the state hooked (a hook belongs to one Lua thread). */
void ms_interrupt_trackcoroutines(struct lua_State *L);

/* Gives thread `L` the hook its state calls for now (the stopping hook once the state or the
 * process is stopped, else the time limit's when one is set). */
void ms_interrupt_rehook(struct lua_State *L);

/* Per state. A state is stopped by its time limit or by the host; the process-wide
 * interruption above stops every state. Once stopped, Lua code of that state raises at every
 * instruction, call and return (the error cannot be swallowed by pcall, coroutine.resume or
 * coroutine.close); other states run on. */
#define MS_STOP_TIMEOUT 1  /* "timeout: the script ran past its time limit" */
#define MS_STOP_HOST 2     /* "interrupted (REASON)" */

/* 0, MS_STOP_TIMEOUT or MS_STOP_HOST. */
int ms_state_stopped(struct lua_State *L);

/* From the Lua thread: stops `L`'s state for `reason` (copied; at most 127 bytes kept). If its
 * Lua code is running now, it raises at its next instruction. Stays until the state closes. */
void ms_state_interrupt(struct lua_State *L, const char *reason);

/* From any thread (a watchdog): marks `L`'s state as past its time limit. Unwatched, only
 * atomics: the Lua thread sees it at the next check of the time limit (every 10,000
 * instructions while a deadline is set) or when Lua code of the state is next entered. Watched
 * (ms_state_watch), the thread running it is sent a signal whose handler hooks its running Lua
 * code, which raises at its next instruction. ms_setdeadline clears it. */
void ms_state_expire(struct lua_State *L);

/* From the thread that runs `L`'s Lua code, not inside it: `watched` nonzero says that a
 * watchdog's thread calls ms_state_expire for `L` at each of its deadlines, for as long as Lua
 * code of the state runs past it; the state then runs with no hook while within its limit
 * (a hook makes Lua 5.4 trap every instruction), and the signal stops it. Zero: the count hook
 * checks the deadline every 10,000 instructions (a state nobody watches). Returns whether the
 * state is watched now (0 when the signal's handler could not be installed or unblocked). */
int ms_state_watch(struct lua_State *L, int watched);
int ms_state_watched(struct lua_State *L);

#endif
