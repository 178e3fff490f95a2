/*
 * rb_balance.h - the red-black tree algorithm written once for the micro
 * benchmark's integer set (benchmarks/micro/rbtree.c) and STAMP's ordered
 * map (benchmarks/stamp/lib/rbtree.c): the textbook insertion and removal
 * with parent pointers and NULL leaves (no shared sentinel, which would be a
 * write hot spot under transactions). A node embeds an rb_link_t as its
 * first member (rb_link.h); the callers own the keys, the search and the memory
 * (nodes are allocated and freed inside their transactions).
 *
 * Static functions in a header: they run inside transactions, and the
 * plugin instruments (and gcc -fgnu-tm clones) what each unit sees, so the
 * algorithm is compiled into the unit of each tree; each of the two units
 * uses every one of them. Not `inline`: gcc 12 -fgnu-tm crashes on the
 * rbtree's clones when it inlines them (benchmarks/CMakeLists.txt).
 */
#ifndef PTM_BENCH_RB_BALANCE_H
#define PTM_BENCH_RB_BALANCE_H

#include "rb_link.h"

#include <stddef.h>
#include <stdio.h>

static int rb_is_red(const rb_link_t *n) { return n && n->red; }

/* Puts V in U's place under U's parent (ROOT: the tree's root pointer). */
static void rb_transplant(rb_link_t **root, rb_link_t *u, rb_link_t *v) {
  if (!u->parent)
    *root = v;
  else if (u == u->parent->left)
    u->parent->left = v;
  else
    u->parent->right = v;
  if (v)
    v->parent = u->parent;
}

static void rb_rotate_left(rb_link_t **root, rb_link_t *x) {
  rb_link_t *y = x->right;
  x->right = y->left;
  if (y->left)
    y->left->parent = x;
  rb_transplant(root, x, y);
  y->left = x;
  x->parent = y;
}

static void rb_rotate_right(rb_link_t **root, rb_link_t *x) {
  rb_link_t *y = x->left;
  x->left = y->right;
  if (y->right)
    y->right->parent = x;
  rb_transplant(root, x, y);
  y->right = x;
  x->parent = y;
}

/* The two cases of each fixup are mirror images, written out as in the
 * textbook rather than folded into one with a direction flag. */
static void rb_insert_fixup(rb_link_t **root, rb_link_t *z) {
  while (rb_is_red(z->parent)) {
    rb_link_t *p = z->parent, *g = p->parent; /* p red: not the root */
    if (p == g->left) {
      rb_link_t *u = g->right;
      if (rb_is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
        continue;
      }
      if (z == p->right) {
        z = p;
        rb_rotate_left(root, z);
        p = z->parent;
      }
      p->red = 0;
      g->red = 1;
      rb_rotate_right(root, g);
    } else {
      rb_link_t *u = g->left;
      if (rb_is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
        continue;
      }
      if (z == p->left) {
        z = p;
        rb_rotate_right(root, z);
        p = z->parent;
      }
      p->red = 0;
      g->red = 1;
      rb_rotate_left(root, g);
    }
  }
  (*root)->red = 0;
}

/* Links the new node Z at *LINK (a NULL child pointer of PARENT, or the
 * root pointer when PARENT is NULL) and rebalances. */
static void rb_insert_at(rb_link_t **root, rb_link_t *parent, rb_link_t **link,
                         rb_link_t *z) {
  z->parent = parent;
  z->left = z->right = NULL;
  z->red = 1;
  *link = z;
  rb_insert_fixup(root, z);
}

/* X (possibly NULL) under XP carries an extra black. */
static void rb_erase_fixup(rb_link_t **root, rb_link_t *x, rb_link_t *xp) {
  while (x != *root && !rb_is_red(x)) {
    if (x == xp->left) {
      rb_link_t *w = xp->right;
      if (rb_is_red(w)) {
        w->red = 0;
        xp->red = 1;
        rb_rotate_left(root, xp);
        w = xp->right;
      }
      if (!rb_is_red(w->left) && !rb_is_red(w->right)) {
        w->red = 1;
        x = xp;
        xp = x->parent;
        continue;
      }
      if (!rb_is_red(w->right)) {
        w->left->red = 0;
        w->red = 1;
        rb_rotate_right(root, w);
        w = xp->right;
      }
      w->red = xp->red;
      xp->red = 0;
      w->right->red = 0;
      rb_rotate_left(root, xp);
    } else {
      rb_link_t *w = xp->left;
      if (rb_is_red(w)) {
        w->red = 0;
        xp->red = 1;
        rb_rotate_right(root, xp);
        w = xp->left;
      }
      if (!rb_is_red(w->left) && !rb_is_red(w->right)) {
        w->red = 1;
        x = xp;
        xp = x->parent;
        continue;
      }
      if (!rb_is_red(w->left)) {
        w->right->red = 0;
        w->red = 1;
        rb_rotate_left(root, w);
        w = xp->left;
      }
      w->red = xp->red;
      xp->red = 0;
      w->left->red = 0;
      rb_rotate_right(root, xp);
    }
    x = *root;
    xp = NULL;
  }
  if (x)
    x->red = 0;
}

/* Unlinks Z from the tree and rebalances; Z's memory stays the caller's. */
static void rb_erase(rb_link_t **root, rb_link_t *z) {
  rb_link_t *x, *xp;
  long removed_red = z->red;
  if (!z->left || !z->right) {
    x = z->left ? z->left : z->right;
    xp = z->parent;
    rb_transplant(root, z, x);
  } else {
    rb_link_t *y = z->right; /* z's successor takes its place */
    while (y->left)
      y = y->left;
    removed_red = y->red;
    x = y->right;
    if (y->parent == z) {
      xp = y;
    } else {
      xp = y->parent;
      rb_transplant(root, y, y->right);
      y->right = z->right;
      y->right->parent = y;
    }
    rb_transplant(root, z, y);
    y->left = z->left;
    y->left->parent = y;
    y->red = z->red;
  }
  if (!removed_red)
    rb_erase_fixup(root, x, xp);
}

/* In-order iteration: the first node (NULL in an empty tree), the next. */
static rb_link_t *rb_first(rb_link_t *n) {
  while (n && n->left)
    n = n->left;
  return n;
}

static rb_link_t *rb_next(rb_link_t *n) {
  if (n->right)
    return rb_first(n->right);
  while (n->parent && n == n->parent->right)
    n = n->parent;
  return n->parent;
}

/* Validation (outside transactions). rb_check_links: the subtree at N,
 * child of PARENT; returns its black height, or -1 after a message on
 * stderr naming WHO; counts the nodes in *COUNT. */
static long rb_check_links(const rb_link_t *n, const rb_link_t *parent,
                           const char *who, long *count) {
  if (!n)
    return 1;
  ++*count;
  if (n->parent != parent) {
    fprintf(stderr, "%s: bad parent pointer\n", who);
    return -1;
  }
  if (n->red && (rb_is_red(n->left) || rb_is_red(n->right))) {
    fprintf(stderr, "%s: red node with a red child\n", who);
    return -1;
  }
  long l = rb_check_links(n->left, n, who, count);
  long r = rb_check_links(n->right, n, who, count);
  if (l < 0 || r < 0)
    return -1;
  if (l != r) {
    fprintf(stderr, "%s: black heights %ld and %ld differ\n", who, l, r);
    return -1;
  }
  return l + !n->red;
}

/* The whole tree: a black root, the links and colours as above, and the
 * keys strictly increasing in order (BEFORE(a, b, ARG): a's key is below
 * b's). Returns the black height or -1; *COUNT: the nodes. */
static long rb_check(rb_link_t *root, const char *who,
                     int (*before)(const rb_link_t *a, const rb_link_t *b,
                                   void *arg),
                     void *arg, long *count) {
  *count = 0;
  if (rb_is_red(root)) {
    fprintf(stderr, "%s: the root is red\n", who);
    return -1;
  }
  long height = rb_check_links(root, NULL, who, count);
  if (height < 0)
    return -1;
  for (rb_link_t *n = rb_first(root), *next; n && (next = rb_next(n)); n = next)
    if (!before(n, next, arg)) {
      fprintf(stderr, "%s: keys out of order\n", who);
      return -1;
    }
  return height;
}

#endif /* PTM_BENCH_RB_BALANCE_H */
