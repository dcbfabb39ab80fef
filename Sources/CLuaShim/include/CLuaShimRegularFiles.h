/* Opening files without blocking, for a host where one script's wait stops every script (the
 * daemon's plugins). open(2) of a FIFO waits for a writer, and a read from a FIFO, a terminal
 * or a device waits for input: in C, where neither the time limit nor the host reaches. Here
 * every file is opened non-blocking and kept only if it is a regular file (or a directory,
 * which reads fail on at once); anything else is refused with an error naming the path, what
 * it is and `why`. */
#ifndef MOTIONSCRIPT_CLUASHIM_REGULARFILES_H
#define MOTIONSCRIPT_CLUASHIM_REGULARFILES_H

struct lua_State;

/* Replaces io.open, loadfile and package.searchpath (dofile and require's file searcher, which
 * the host builds on these, follow), and makes stdin, io.stdin and the default input an empty
 * input (reading it gives end-of-file at once). `why` ends each refusal (copied). Run before
 * anything captures those functions; io.lines, io.input and io.output of a file name are
 * wrapped by the host in Lua (RegularFiles.swift). */
void ms_regularfiles_install(struct lua_State *L, const char *why);

#endif
