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
#include <stdlib.h>

#define MS_POOL_GRAIN 16
#define MS_POOL_MAX 256
#define MS_POOL_CLASSES (MS_POOL_MAX / MS_POOL_GRAIN)

typedef struct ms_PoolChunk ms_PoolChunk;

typedef struct {
    void *free[MS_POOL_CLASSES];
    char *next, *end;       /* the newest chunk's unused part */
    ms_PoolChunk *chunks;
} ms_Pool;

/* Under AddressSanitizer every block comes from malloc, so that it still sees each one. */
#if defined(__SANITIZE_ADDRESS__)
#define MS_POOL_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MS_POOL_ENABLED 0
#endif
#endif
#ifndef MS_POOL_ENABLED
#define MS_POOL_ENABLED 1
#endif

/* A block of `size` (1...MS_POOL_MAX) bytes taken from a new chunk: the slow path. */
void *ms_pool_carve(ms_Pool *pool, size_t size);

/* realloc for the blocks that move between the pool and malloc, or between classes. */
void *ms_pool_move(ms_Pool *pool, void *block, size_t old, size_t size);

/* Releases every chunk (after lua_close has freed every block). */
void ms_pool_destroy(ms_Pool *pool);

static inline size_t ms_pool_class(size_t size) { return (size - 1) / MS_POOL_GRAIN; }

static inline void *ms_pool_alloc(ms_Pool *pool, size_t size) {
    size_t c = ms_pool_class(size);
    void *block = pool->free[c];
    if (block) {
        pool->free[c] = *(void **)block;
        return block;
    }
    return ms_pool_carve(pool, size);
}

static inline void ms_pool_free(ms_Pool *pool, void *block, size_t size) {
    if (!MS_POOL_ENABLED || size > MS_POOL_MAX) {
        free(block);
        return;
    }
    size_t c = ms_pool_class(size);
    *(void **)block = pool->free[c];
    pool->free[c] = block;
}

/* Lua's realloc for a block of `old` bytes (0 and NULL for a new block) to `size` > 0 bytes;
 * NULL when memory is short. */
static inline void *ms_pool_realloc(ms_Pool *pool, void *block, size_t old, size_t size) {
    if (!MS_POOL_ENABLED) return realloc(block, size);
    if (block == NULL) return size <= MS_POOL_MAX ? ms_pool_alloc(pool, size) : malloc(size);
    if (old > MS_POOL_MAX && size > MS_POOL_MAX) return realloc(block, size);
    /* Still fits its block (a block freed by a smaller size goes to a smaller class, which
     * it more than fills). */
    if (old <= MS_POOL_MAX && size <= (ms_pool_class(old) + 1) * MS_POOL_GRAIN) return block;
    return ms_pool_move(pool, block, old, size);
}

#endif
