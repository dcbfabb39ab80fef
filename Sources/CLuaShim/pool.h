/* Small blocks for one Lua state (private to the shim): a free list per 16-byte size class,
 * carved from 64 KiB chunks. Lua allocates and frees a table and its node array for every
 * event a callback receives; glibc's malloc and free cost some 400 instructions a pair of
 * them, a free-list pop and push a few dozen. Freed blocks are kept for reuse by the state,
 * and every chunk is released when the state closes. Lua always tells the allocator the size
 * of the block it frees or resizes, so a block's class is known from its size alone: a
 * block of at most MS_POOL_MAX bytes always lives in the pool, a larger one with malloc. */
#ifndef MOTIONSCRIPT_CLUASHIM_POOL_H
#define MOTIONSCRIPT_CLUASHIM_POOL_H

#include <stddef.h>

#define MS_POOL_GRAIN 16
#define MS_POOL_MAX 256
#define MS_POOL_CLASSES (MS_POOL_MAX / MS_POOL_GRAIN)

typedef struct ms_PoolChunk ms_PoolChunk;

typedef struct {
    void *free[MS_POOL_CLASSES];
    char *next, *end;       /* the newest chunk's unused part */
    ms_PoolChunk *chunks;
} ms_Pool;

/* realloc and free for Lua's allocator: `old` is the block's size (0 for a new block),
 * `size` the size wanted (0 frees). NULL when memory is short (never for a free). */
void *ms_pool_realloc(ms_Pool *pool, void *block, size_t old, size_t size);

/* Releases every chunk (after lua_close has freed every block). */
void ms_pool_destroy(ms_Pool *pool);

#endif
