/* For C code a script calls that can loop long in C (interrupt.c). */
#ifndef MOTIONSCRIPT_CLUASHIM_CHECKSTOP_H
#define MOTIONSCRIPT_CLUASHIM_CHECKSTOP_H

struct lua_State;

/* Raises, as the hooks would at the script's next instruction, when `L`'s state must stop: its
 * time limit passed, the host stopped it, or the process was interrupted. Otherwise returns.
 * Call from a C function Lua called (the error unwinds C frames of the library only). Reads
 * the monotonic clock: call it every few thousand steps, not at each. */
void ms_checkstop(struct lua_State *L);

/* Steps counted on this thread since the last check (any state: it only paces the checks). */
extern _Thread_local unsigned ms_steps;

/* One step of a long loop in C; every 10,000, ms_checkstop. */
static inline void ms_countstep(struct lua_State *L) {
    if (__builtin_expect(++ms_steps >= 10000, 0)) {
        ms_steps = 0;
        ms_checkstop(L);
    }
}

#endif
