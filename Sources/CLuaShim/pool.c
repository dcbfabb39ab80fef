#include "pool.h"
#include <string.h>

#define CHUNK_SIZE (64 * 1024)

struct ms_PoolChunk {
    ms_PoolChunk *next;
    /* keeps the blocks after the header aligned as malloc's are */
    char pad[MS_POOL_GRAIN - sizeof(ms_PoolChunk *)];
};

void *ms_pool_carve(ms_Pool *pool, size_t size) {
    size_t rounded = (ms_pool_class(size) + 1) * MS_POOL_GRAIN;
    if ((size_t)(pool->end - pool->next) < rounded) {
        /* The old chunk's tail goes to the free list of the largest class it fills. */
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
    void *block = pool->next;
    pool->next += rounded;
    return block;
}

void *ms_pool_move(ms_Pool *pool, void *block, size_t old, size_t size) {
    void *moved = size <= MS_POOL_MAX ? ms_pool_alloc(pool, size) : malloc(size);
    if (!moved) return NULL;
    memcpy(moved, block, old < size ? old : size);
    ms_pool_free(pool, block, old);
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
