/* The red-black tree: see rbtree.h. The balancing is rb_balance.h's, shared
 * with the micro benchmark's tree; keys, search, data and size are here. */
#include "rbtree.h"

#include "rb_balance.h"

#include "tm.h"

static long compare(rbtree_t *t, const void *a, const void *b) {
  if (t->cmp)
    return t->cmp(a, b);
  long x = (long)a, y = (long)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

static rbtree_node_t *node_of(rb_link_t *l) { return (rbtree_node_t *)l; }

rbtree_t *rbtree_alloc(stamp_cmp_t cmp) {
  rbtree_t *t = TM_MALLOC(sizeof *t);
  if (t) {
    t->root = NULL;
    t->cmp = cmp;
    t->size = 0;
  }
  return t;
}

static void free_nodes(rb_link_t *n) {
  while (n) {
    free_nodes(n->left);
    rb_link_t *right = n->right;
    TM_FREE(n);
    n = right;
  }
}

void rbtree_free(rbtree_t *t) {
  free_nodes(t->root);
  TM_FREE(t);
}

long rbtree_getSize(rbtree_t *t) { return t->size; }

static rbtree_node_t *lookup(rbtree_t *t, void *key) {
  rb_link_t *n = t->root;
  while (n) {
    long c = compare(t, key, node_of(n)->key);
    if (c == 0)
      return node_of(n);
    n = c < 0 ? n->left : n->right;
  }
  return NULL;
}

bool_t rbtree_contains(rbtree_t *t, void *key) { return lookup(t, key) != 0; }

void *rbtree_get(rbtree_t *t, void *key) {
  rbtree_node_t *n = lookup(t, key);
  return n ? n->data : NULL;
}

bool_t rbtree_insert(rbtree_t *t, void *key, void *data) {
  rb_link_t *parent = NULL, **link = &t->root;
  while (*link) {
    parent = *link;
    long c = compare(t, key, node_of(parent)->key);
    if (c == 0)
      return FALSE;
    link = c < 0 ? &parent->left : &parent->right;
  }
  rbtree_node_t *n = TM_MALLOC(sizeof *n);
  if (!n)
    return FALSE;
  n->key = key;
  n->data = data;
  t->size++;
  rb_insert_at(&t->root, parent, link, &n->link);
  return TRUE;
}

bool_t rbtree_update(rbtree_t *t, void *key, void *data) {
  rbtree_node_t *n = lookup(t, key);
  if (n) {
    n->data = data;
    return TRUE;
  }
  return rbtree_insert(t, key, data);
}

bool_t rbtree_delete(rbtree_t *t, void *key) {
  rbtree_node_t *z = lookup(t, key);
  if (!z)
    return FALSE;
  rb_erase(&t->root, &z->link);
  TM_FREE(z);
  t->size--;
  return TRUE;
}

rbtree_node_t *rbtree_first(rbtree_t *t) { return node_of(rb_first(t->root)); }

rbtree_node_t *rbtree_next(rbtree_node_t *n) {
  return node_of(rb_next(&n->link));
}

static int key_before(const rb_link_t *a, const rb_link_t *b, void *t) {
  return compare(t, ((const rbtree_node_t *)a)->key,
                 ((const rbtree_node_t *)b)->key) < 0;
}

long rbtree_verify(rbtree_t *t) {
  long count;
  if (rb_check(t->root, "rbtree", key_before, t, &count) < 0)
    return -1;
  if (count != t->size) {
    fprintf(stderr, "rbtree: %ld nodes, size says %ld\n", count, t->size);
    return -1;
  }
  return count;
}
