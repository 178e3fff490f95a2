/* map.h - STAMP's MAP_* interface, here always the red-black tree. */
#ifndef STAMP_MAP_H
#define STAMP_MAP_H

#include "rbtree.h"

typedef rbtree_t map_t;
#define MAP_ALLOC(hash, cmp) rbtree_alloc(cmp)
#define MAP_FREE(map) rbtree_free(map)
#define MAP_CONTAINS(map, key) rbtree_contains(map, (void *)(key))
#define MAP_FIND(map, key) rbtree_get(map, (void *)(key))
#define MAP_INSERT(map, key, data) rbtree_insert(map, (void *)(key), data)
#define MAP_REMOVE(map, key) rbtree_delete(map, (void *)(key))
#define MAP_UPDATE(map, key, data) rbtree_update(map, (void *)(key), data)
#define MAP_GETSIZE(map) rbtree_getSize(map)

#endif /* STAMP_MAP_H */
