/* The interruptible copies of the library (CLuaShimBounded.h), by file. */
#ifndef MOTIONSCRIPT_CLUASHIM_BOUNDED_PRIVATE_H
#define MOTIONSCRIPT_CLUASHIM_BOUNDED_PRIVATE_H

struct lua_State;

/* Sets insert, remove, move, concat and sort in the table at `table` (tables.c). */
void ms_bounded_tables(struct lua_State *L, int table);

#endif
