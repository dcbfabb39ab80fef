/* The per-event bridge: what the host hands a Lua callback for every input event (a pointer
 * event table, a point) built in one C call from strings interned once per state, and the
 * point a `map` returns read back the same way. None of these raises a Lua error (short of
 * the process running out of memory, which the capped allocator never reports while Swift
 * runs), so Swift may call them directly. */
#ifndef MOTIONSCRIPT_CLUASHIM_BRIDGE_H
#define MOTIONSCRIPT_CLUASHIM_BRIDGE_H

#include <stddef.h>

struct lua_State;

/* The interned strings: table keys, the four phase names in PointerPhase order, then the key
 * of a live pointer's device. */
enum {
    MS_KEY_ID, MS_KEY_PHASE, MS_KEY_X, MS_KEY_Y,
    MS_KEY_DOWN, MS_KEY_MOVE, MS_KEY_UP, MS_KEY_CANCEL,
    MS_KEY_DEVICE,
    MS_KEY_COUNT
};

/* Interns the strings in a new state (called by ms_newstate, on its empty stack: they are also
 * left at the bottom of the main thread's stack, see bridge.c). */
void ms_bridge_init(struct lua_State *L);

/* Pushes interned string `key` (one stack slot). */
void ms_pushkey(struct lua_State *L, int key);

/* Pushes a new table {id=, phase=, x=, y=}; `phase` is MS_KEY_DOWN...MS_KEY_CANCEL. Needs 3
 * free stack slots. */
void ms_pushpointer(struct lua_State *L, long long id, int phase, double x, double y);

/* Pushes a new table {x=, y=}. Needs 3 free stack slots. */
void ms_pushpoint(struct lua_State *L, double x, double y);

/* Readies a call of the function held at registry reference `fn`: checks room for `slots`
 * values beyond the handler and the function, then pushes the traceback handler and the
 * function. Returns the stack top from before (the handler sits at top + 1), or -1, having
 * pushed nothing, when Lua's stack has no room. Run it with ms_pcalllua(L, n, r, top + 1). */
int ms_callprepare(struct lua_State *L, int fn, int slots);

/* ms_callprepare, ms_pushpointer and ms_pcalllua in one: the callback of every pointer event.
 * Returns the pcall status, or MS_CALL_NOSTACK when the stack had no room (nothing pushed);
 * `*top` receives the stack top from before, to restore once the results are read. */
#define MS_CALL_NOSTACK (-1)
int ms_callpointer(struct lua_State *L, int fn, long long id, int phase, double x, double y,
                   int nresults, int *top);

/* ms_callpointer for a pointer of a live device: the table also gets registry[key] =
 * registry[device] (the `device` key and that device's table, made once per device), or
 * nothing more when either is LUA_NOREF. */
int ms_callpointerfrom(struct lua_State *L, int fn, long long id, int phase, double x, double y,
                       int key, int device, int nresults, int *top);

/* ms_callpointerfrom with no results (a `subscribe` callback, run for its effect): on LUA_OK
 * the stack is already back at `*top`, so the caller has nothing more to do per event; on an
 * error the message is left above `*top` for the caller to report and pop. */
int ms_runpointer(struct lua_State *L, int fn, long long id, int phase, double x, double y,
                  int key, int device, int *top);

/* Sets registry[key] = registry[value] in the table on top of the stack. Needs 2 free stack
 * slots; the table must have no metatable (the set is raw). */
void ms_setfieldref(struct lua_State *L, int key, int value);

/* Whether the value at `index` is the table {x = number, y = number} and nothing else (no
 * array part, no other key; metatables are not consulted); if so its numbers go to *x, *y.
 * Needs 2 free stack slots (returns 0 without them). */
int ms_topoint(struct lua_State *L, int index, double *x, double *y);

/* The host's metatables, held by registry reference in the state (never looked up by name: a
 * script with `debug` can give the registry a metatable whose __index raises, and a binding
 * must not raise). Slots 0...4 are the Swift object types (LuaObjectType), 5 gesture values. */
#define MS_METATABLE_GESTURE 5
#define MS_METATABLE_COUNT 6

/* Makes the table on top of the stack (not popped) the metatable of `slot`. */
void ms_setmetatableslot(struct lua_State *L, int slot);

/* Pushes a new userdata of `size` bytes (one user value) with `slot`'s metatable and returns
 * its block. Needs 2 free stack slots. */
void *ms_newobject(struct lua_State *L, size_t size, int slot);

/* The block of the userdata at `index` if its metatable is `slot`'s, else NULL: what
 * luaL_testudata does, with the metatable held by reference. Raw: never raises. Needs 2 free
 * stack slots. */
void *ms_testobject(struct lua_State *L, int index, int slot);

/* Gesture values: ms_newobject / ms_testobject with MS_METATABLE_GESTURE (no user value). */
void *ms_newgesture(struct lua_State *L, size_t size);
void *ms_testgesture(struct lua_State *L, int index);

/* Whether less than min(reserve, stack size / 4) bytes of native stack are left. */
int ms_stacklow(size_t reserve);

#endif
