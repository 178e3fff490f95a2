/*
 * rbtree: a set of integer keys in a red-black tree (the textbook algorithm
 * with parent pointers and NULL leaves, so no shared sentinel is written).
 * Nodes are allocated with ptm_malloc inside the inserting transaction and
 * freed with ptm_free inside the removing one. UPDATE_PERCENT of the
 * operations are updates (half inserts, half removes), the rest lookups; the
 * tree starts half full. Validation: search order, parent pointers, black
 * root, no red node with a red child, the same number of black nodes on
 * every path, and size = initial + successful inserts - successful removes.
 *
 *   rbtree [common options]
 */
#include "bench.h"
#include "rb_balance.h"
#include "set_worker.h"

#include <stdio.h>
#include <stdlib.h>

struct rbnode {
  rb_link_t link; /* first: a node is its link */
  long key;
};

struct rbtree_root {
  rb_link_t *root;
};

static struct rbtree_root *tree;

static long key_of(const rb_link_t *n) {
  return ((const struct rbnode *)n)->key;
}

static int rb_contains(long key) {
  rb_link_t *n = tree->root;
  while (n && key_of(n) != key)
    n = key < key_of(n) ? n->left : n->right;
  return n != NULL;
}

static int rb_insert(long key) {
  rb_link_t *p = NULL, **link = &tree->root;
  while (*link) {
    p = *link;
    if (key == key_of(p))
      return 0;
    link = key < key_of(p) ? &p->left : &p->right;
  }
  struct rbnode *z = ptm_malloc(sizeof *z);
  z->key = key;
  rb_insert_at(&tree->root, p, link, &z->link);
  return 1;
}

static int rb_remove(long key) {
  rb_link_t *z = tree->root;
  while (z && key_of(z) != key)
    z = key < key_of(z) ? z->left : z->right;
  if (!z)
    return 0;
  rb_erase(&tree->root, z);
  ptm_free(z);
  return 1;
}

SET_BENCH_WORKER(worker, rb_insert, rb_remove, rb_contains)

static int key_before(const rb_link_t *a, const rb_link_t *b, void *arg) {
  (void)arg;
  return key_of(a) < key_of(b);
}

int main(int argc, char **argv) {
  bench.key_range = 4096;
  bench.update = 20;
  bench_parse(argc, argv, "rbtree", "", "", NULL);

  tree = bench_root("rbtree", sizeof *tree);
  PTM_BEGIN();
  tree->root = NULL;
  PTM_END();
  long initial = bench_fill(worker_insert);

  bench_run(worker);

  long size;
  long height = rb_check(tree->root, "rbtree", key_before, NULL, &size);
  int ok = height >= 0;
  rb_link_t *lo = rb_first(tree->root), *hi = tree->root;
  while (hi && hi->right)
    hi = hi->right;
  if (ok && lo && (key_of(lo) < 0 || key_of(hi) >= bench.key_range)) {
    fprintf(stderr, "rbtree: keys %ld..%ld outside [0, %ld)\n", key_of(lo),
            key_of(hi), bench.key_range);
    ok = 0;
  }
  char detail[48];
  snprintf(detail, sizeof detail, ", black height %ld", height);
  return set_bench_finish("rbtree", size, initial, ok, detail);
}
