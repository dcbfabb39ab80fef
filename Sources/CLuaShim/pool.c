#include "pool.h"
#include <stdlib.h>
#include <string.h>

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

#define CHUNK_SIZE (64 * 1024)

struct ms_PoolChunk {
    ms_PoolChunk *next;
    /* keeps the blocks after the header aligned as malloc's are */
    char pad[MS_POOL_GRAIN - sizeof(ms_PoolChunk *)];
};

static inline size_t class_of(size_t size) { return (size - 1) / MS_POOL_GRAIN; }

static void *pool_alloc(ms_Pool *pool, size_t size) {
    size_t c = class_of(size);
    void *block = pool->free[c];
    if (block) {
        pool->free[c] = *(void **)block;
        return block;
    }
    size_t rounded = (c + 1) * MS_POOL_GRAIN;
    if ((size_t)(pool->end - pool->next) < rounded) {
        /* The old chunk's tail goes to the free list of the largest class it fits. */
        size_t tail = (size_t)(pool->end - pool->next);
        if (tail >= MS_POOL_GRAIN) {
            size_t t = tail / MS_POOL_GRAIN - 1;
            *(void **)pool->next = pool->free[t];
            pool->free[t] = pool->next;
        }
        ms_PoolChunk *chunk = malloc(CHUNK_SIZE);
        if (!chunk) return NULL;
        chunk->next = pool->chunks;
        pool->chunks = chunk;
        pool->next = (char *)(chunk + 1);
        pool->end = (char *)chunk + CHUNK_SIZE;
    }
    block = pool->next;
    pool->next += rounded;
    return block;
}

static inline void pool_free(ms_Pool *pool, void *block, size_t size) {
    size_t c = class_of(size);
    *(void **)block = pool->free[c];
    pool->free[c] = block;
}

void *ms_pool_realloc(ms_Pool *pool, void *block, size_t old, size_t size) {
    if (!MS_POOL_ENABLED) {
        if (size == 0) { free(block); return NULL; }
        return realloc(block, size);
    }
    if (size == 0) {
        if (block == NULL) return NULL; /* Lua frees empty vectors too */
        if (old <= MS_POOL_MAX) pool_free(pool, block, old);
        else free(block);
        return NULL;
    }
    if (block == NULL) return size <= MS_POOL_MAX ? pool_alloc(pool, size) : malloc(size);
    if (old <= MS_POOL_MAX) {
        /* Still fits its block (a block freed by a smaller size goes to a smaller class,
         * which it more than fills). */
        if (size <= (class_of(old) + 1) * MS_POOL_GRAIN) return block;
        void *moved = size <= MS_POOL_MAX ? pool_alloc(pool, size) : malloc(size);
        if (!moved) return NULL;
        memcpy(moved, block, old);
        pool_free(pool, block, old);
        return moved;
    }
    if (size > MS_POOL_MAX) return realloc(block, size);
    /* A malloc block shrinking into the pool's sizes moves there. */
    void *moved = pool_alloc(pool, size);
    if (!moved) return NULL;
    memcpy(moved, block, size);
    free(block);
    return moved;
}

void ms_pool_destroy(ms_Pool *pool) {
    ms_PoolChunk *chunk = pool->chunks;
    while (chunk) {
        ms_PoolChunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    memset(pool, 0, sizeof *pool);
}
