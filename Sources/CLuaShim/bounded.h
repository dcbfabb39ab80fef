/* The interruptible copies of the library (CLuaShimBounded.h), by file. */
#ifndef MOTIONSCRIPT_CLUASHIM_BOUNDED_PRIVATE_H
#define MOTIONSCRIPT_CLUASHIM_BOUNDED_PRIVATE_H

struct lua_State;

/* Sets insert, remove, move, concat and sort in the table at `table` (tables.c). */
void ms_bounded_tables(struct lua_State *L, int table);

/* The results of load and loadfile (lbaselib.c's load_aux): the function, its first upvalue set
 * to the value at `envidx` when not 0; or fail and the error message on top (bounded.c). */
int ms_load_aux(struct lua_State *L, int status, int envidx);

#endif
