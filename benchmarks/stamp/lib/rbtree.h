/*
 * rbtree.h - an ordered map in a red-black tree (STAMP's rbtree_t): keys
 * ordered by CMP (NULL: keys are long values cast to pointers), one entry
 * per key. Nodes come from TM_MALLOC, so a tree may be shared and updated
 * inside transactions.
 */
#ifndef STAMP_RBTREE_H
#define STAMP_RBTREE_H

#include "rb_link.h"
#include "types.h"

typedef struct rbtree_node {
  rb_link_t link; /* first: the tree's links (benchmarks/common/rb_link.h) */
  void *key;
  void *data;
} rbtree_node_t;

typedef struct rbtree {
  rb_link_t *root;
  stamp_cmp_t cmp;
  long size;
} rbtree_t;

rbtree_t *rbtree_alloc(stamp_cmp_t cmp);
void rbtree_free(rbtree_t *t); /* nodes, not keys or data */
long rbtree_getSize(rbtree_t *t);
bool_t rbtree_contains(rbtree_t *t, void *key);
void *rbtree_get(rbtree_t *t, void *key);                 /* NULL if absent */
bool_t rbtree_insert(rbtree_t *t, void *key, void *data); /* FALSE if there */
bool_t rbtree_delete(rbtree_t *t, void *key);             /* FALSE if absent */
bool_t rbtree_update(rbtree_t *t, void *key, void *data); /* insert or set */

/* In-order iteration: rbtree_first, then rbtree_next until NULL. */
rbtree_node_t *rbtree_first(rbtree_t *t);
rbtree_node_t *rbtree_next(rbtree_node_t *n);

/* Checks order, parent links, colours and the size; returns the number of
 * nodes, or -1 (with a message on stderr) when the tree is broken. */
long rbtree_verify(rbtree_t *t);

#endif /* STAMP_RBTREE_H */
