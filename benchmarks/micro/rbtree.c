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
#include "set_worker.h"

#include <stdio.h>
#include <stdlib.h>

struct rbnode {
  long key;
  long red;
  struct rbnode *left, *right, *parent;
};

struct rbtree_root {
  struct rbnode *root;
};

static struct rbtree_root *tree;

static int is_red(const struct rbnode *n) { return n && n->red; }

static void rotate_left(struct rbnode *x) {
  struct rbnode *y = x->right;
  x->right = y->left;
  if (y->left)
    y->left->parent = x;
  y->parent = x->parent;
  if (!x->parent)
    tree->root = y;
  else if (x == x->parent->left)
    x->parent->left = y;
  else
    x->parent->right = y;
  y->left = x;
  x->parent = y;
}

static void rotate_right(struct rbnode *x) {
  struct rbnode *y = x->left;
  x->left = y->right;
  if (y->right)
    y->right->parent = x;
  y->parent = x->parent;
  if (!x->parent)
    tree->root = y;
  else if (x == x->parent->right)
    x->parent->right = y;
  else
    x->parent->left = y;
  y->right = x;
  x->parent = y;
}

static int rb_contains(long key) {
  struct rbnode *n = tree->root;
  while (n && n->key != key)
    n = key < n->key ? n->left : n->right;
  return n != NULL;
}

static void insert_fixup(struct rbnode *z) {
  while (is_red(z->parent)) {
    struct rbnode *p = z->parent, *g = p->parent; /* p red: not the root */
    if (p == g->left) {
      struct rbnode *u = g->right;
      if (is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
      } else {
        if (z == p->right) {
          z = p;
          rotate_left(z);
          p = z->parent;
        }
        p->red = 0;
        g->red = 1;
        rotate_right(g);
      }
    } else {
      struct rbnode *u = g->left;
      if (is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
      } else {
        if (z == p->left) {
          z = p;
          rotate_right(z);
          p = z->parent;
        }
        p->red = 0;
        g->red = 1;
        rotate_left(g);
      }
    }
  }
  tree->root->red = 0;
}

static int rb_insert(long key) {
  struct rbnode *p = NULL, *n = tree->root;
  while (n) {
    if (key == n->key)
      return 0;
    p = n;
    n = key < n->key ? n->left : n->right;
  }
  struct rbnode *z = ptm_malloc(sizeof *z);
  z->key = key;
  z->red = 1;
  z->left = z->right = NULL;
  z->parent = p;
  if (!p)
    tree->root = z;
  else if (key < p->key)
    p->left = z;
  else
    p->right = z;
  insert_fixup(z);
  return 1;
}

/* Puts V in U's place under U's parent. */
static void transplant(struct rbnode *u, struct rbnode *v) {
  if (!u->parent)
    tree->root = v;
  else if (u == u->parent->left)
    u->parent->left = v;
  else
    u->parent->right = v;
  if (v)
    v->parent = u->parent;
}

/* X (possibly NULL) carries an extra black; XP is its parent. */
static void delete_fixup(struct rbnode *x, struct rbnode *xp) {
  while (x != tree->root && !is_red(x)) {
    if (x == xp->left) {
      struct rbnode *w = xp->right;
      if (is_red(w)) {
        w->red = 0;
        xp->red = 1;
        rotate_left(xp);
        w = xp->right;
      }
      if (!is_red(w->left) && !is_red(w->right)) {
        w->red = 1;
        x = xp;
        xp = x->parent;
      } else {
        if (!is_red(w->right)) {
          w->left->red = 0;
          w->red = 1;
          rotate_right(w);
          w = xp->right;
        }
        w->red = xp->red;
        xp->red = 0;
        w->right->red = 0;
        rotate_left(xp);
        x = tree->root;
        xp = NULL;
      }
    } else {
      struct rbnode *w = xp->left;
      if (is_red(w)) {
        w->red = 0;
        xp->red = 1;
        rotate_right(xp);
        w = xp->left;
      }
      if (!is_red(w->left) && !is_red(w->right)) {
        w->red = 1;
        x = xp;
        xp = x->parent;
      } else {
        if (!is_red(w->left)) {
          w->right->red = 0;
          w->red = 1;
          rotate_left(w);
          w = xp->left;
        }
        w->red = xp->red;
        xp->red = 0;
        w->left->red = 0;
        rotate_right(xp);
        x = tree->root;
        xp = NULL;
      }
    }
  }
  if (x)
    x->red = 0;
}

static int rb_remove(long key) {
  struct rbnode *z = tree->root;
  while (z && z->key != key)
    z = key < z->key ? z->left : z->right;
  if (!z)
    return 0;
  struct rbnode *x, *xp;
  long removed_red = z->red;
  if (!z->left) {
    x = z->right;
    xp = z->parent;
    transplant(z, z->right);
  } else if (!z->right) {
    x = z->left;
    xp = z->parent;
    transplant(z, z->left);
  } else {
    struct rbnode *y = z->right; /* z's successor takes its place */
    while (y->left)
      y = y->left;
    removed_red = y->red;
    x = y->right;
    if (y->parent == z) {
      xp = y;
    } else {
      xp = y->parent;
      transplant(y, y->right);
      y->right = z->right;
      y->right->parent = y;
    }
    transplant(z, y);
    y->left = z->left;
    y->left->parent = y;
    y->red = z->red;
  }
  if (!removed_red)
    delete_fixup(x, xp);
  ptm_free(z);
  return 1;
}

SET_BENCH_WORKER(worker, rb_insert, rb_remove, rb_contains)

/* Checks the subtree at N (keys in (lo, hi)); returns its black height, or
 * -1 after reporting a violation. Counts the nodes in *SIZE. */
static long check(const struct rbnode *n, const struct rbnode *parent, long lo,
                  long hi, long *size) {
  if (!n)
    return 1;
  ++*size;
  if (n->parent != parent || n->key <= lo || n->key >= hi) {
    fprintf(stderr, "rbtree: key %ld: bad parent pointer or order\n", n->key);
    return -1;
  }
  if (n->red && (is_red(n->left) || is_red(n->right))) {
    fprintf(stderr, "rbtree: red node %ld has a red child\n", n->key);
    return -1;
  }
  long l = check(n->left, n, lo, n->key, size);
  long r = check(n->right, n, n->key, hi, size);
  if (l < 0 || r < 0)
    return -1;
  if (l != r) {
    fprintf(stderr, "rbtree: key %ld: black heights %ld and %ld differ\n",
            n->key, l, r);
    return -1;
  }
  return l + !n->red;
}

int main(int argc, char **argv) {
  bench.key_range = 4096;
  bench.update = 20;
  bench_parse(argc, argv, "rbtree", "", "", NULL);

  tree = ptm_root(sizeof *tree);
  if (!tree) {
    fprintf(stderr, "rbtree: no root object\n");
    return 1;
  }
  PTM_BEGIN();
  tree->root = NULL;
  PTM_END();
  bench_thread_t setup = bench_setup_thread();
  long initial = 0;
  while (initial < bench.key_range / 2) {
    long key = bench_rand_below(&setup, bench.key_range);
    int done = 0;
    PTM_BEGIN();
    done = rb_insert(key);
    PTM_END();
    initial += done;
  }

  bench_run(worker);

  long size = 0;
  int ok = !is_red(tree->root);
  if (!ok)
    fprintf(stderr, "rbtree: the root is red\n");
  long height = check(tree->root, NULL, -1, bench.key_range, &size);
  if (height < 0)
    ok = 0;
  long expected = initial + bench_sum(0) - bench_sum(1);
  if (size != expected) {
    fprintf(stderr, "rbtree: size %ld, expected %ld\n", size, expected);
    ok = 0;
  }
  if (ok)
    printf("rbtree: %ld keys (%ld initial + %ld inserted - %ld removed), "
           "black height %ld\n",
           size, initial, bench_sum(0), bench_sum(1), height);
  return bench_finish("rbtree", ok);
}
