/* Library functions that a time limit, an interruption and the host's stop reach inside C.
 *
 * The Lua hook runs between Lua instructions only: a standard-library function that loops in C
 * without calling Lua (a pattern that backtracks exponentially, string.rep("", 1e15),
 * table.move over 2^62 empty slots, load of a chunk that parses in quadratic time) could not be
 * stopped, and only ending the process left it. The versions installed here are copies of
 * Lua 5.4.4's (same results, same errors) that check the state every few thousand steps and
 * raise "timeout: …" or "interrupted …" from inside, as the hook would. */
#ifndef MOTIONSCRIPT_CLUASHIM_BOUNDED_H
#define MOTIONSCRIPT_CLUASHIM_BOUNDED_H

struct lua_State;

/* Replaces, in the state's standard library (opened already): string.find, string.match,
 * string.gmatch, string.gsub, string.rep, table.insert, table.remove, table.move,
 * table.concat, table.sort and load. */
void ms_bounded_install(struct lua_State *L);

/* Sets find, match, gmatch and gsub in the table at `string` (patterns.c; the fuzz target
 * compares them with the stock ones). */
void ms_bounded_patterns(struct lua_State *L, int string);

#endif
