/* Finalizers under the limits. Lua 5.4 runs `__gc` metamethods with hooks off, so a finalizer
 * that loops would ignore the time limit and every interruption, and hang lua_close. So no
 * finalizer the collector runs is ever Lua code:
 *
 * - `setmetatable(t, mt)` (and `debug.setmetatable`) with a `__gc` in `mt` does not mark `t` for
 *   finalization (Lua marks an object only when its metatable has `__gc` at that call: the field
 *   is left out for the call and put back). A sentinel userdata with a C `__gc`, tied to `t`
 *   through an ephemeron table, is collected with `t` and queues it; the host runs `t`'s
 *   current `__gc` later, as an ordinary protected call with hooks on, after the outermost call
 *   into the state returns (ms_pcalllua). A finalizer's error is dropped, as Lua drops it (a
 *   warning), unless the state was stopped (time limit, interruption): that error is the call's.
 * - Metatables whose `__gc` is C (the host's objects, files) are shown to Lua as a read-only view
 *   (their `__metatable`), so a script cannot put a Lua function there; `debug.setmetatable`
 *   refuses full userdata (all of them are the host's) and `debug.getmetatable` shows the view.
 * - Queued finalizers do not run when the state closes (nothing they do would reach the host). */
#ifndef MOTIONSCRIPT_CLUASHIM_FINALIZERS_H
#define MOTIONSCRIPT_CLUASHIM_FINALIZERS_H

struct lua_State;

/* Wraps setmetatable, debug.setmetatable, debug.getmetatable and debug.sethook (see above; a
 * script's own hook would replace the time limit's, so debug.sethook refuses while a limit is
 * set) and protects the metatable of files. Call once, after the standard libraries are open
 * and before any script runs. */
void ms_finalizers_install(struct lua_State *L);

/* Makes the metatable on top of the stack (left there) read-only to scripts: getmetatable
 * returns a view that reads through to it and refuses writes. */
void ms_protectmetatable(struct lua_State *L);

#endif
