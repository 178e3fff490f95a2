/* The red-black tree: see rbtree.h. Leaves are NULL (no shared sentinel,
 * which would be a write hot spot under transactions). */
#include "rbtree.h"

#include <stdio.h>

#include "tm.h"

static long compare(rbtree_t *t, const void *a, const void *b) {
  if (t->cmp)
    return t->cmp(a, b);
  long x = (long)a, y = (long)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

rbtree_t *rbtree_alloc(stamp_cmp_t cmp) {
  rbtree_t *t = TM_MALLOC(sizeof *t);
  if (t) {
    t->root = NULL;
    t->cmp = cmp;
    t->size = 0;
  }
  return t;
}

static void free_nodes(rbtree_node_t *n) {
  while (n) {
    free_nodes(n->left);
    rbtree_node_t *right = n->right;
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
  rbtree_node_t *n = t->root;
  while (n) {
    long c = compare(t, key, n->key);
    if (c == 0)
      return n;
    n = c < 0 ? n->left : n->right;
  }
  return NULL;
}

bool_t rbtree_contains(rbtree_t *t, void *key) { return lookup(t, key) != 0; }

void *rbtree_get(rbtree_t *t, void *key) {
  rbtree_node_t *n = lookup(t, key);
  return n ? n->data : NULL;
}

static void rotate_left(rbtree_t *t, rbtree_node_t *x) {
  rbtree_node_t *y = x->right;
  x->right = y->left;
  if (y->left)
    y->left->parent = x;
  y->parent = x->parent;
  if (!x->parent)
    t->root = y;
  else if (x == x->parent->left)
    x->parent->left = y;
  else
    x->parent->right = y;
  y->left = x;
  x->parent = y;
}

static void rotate_right(rbtree_t *t, rbtree_node_t *x) {
  rbtree_node_t *y = x->left;
  x->left = y->right;
  if (y->right)
    y->right->parent = x;
  y->parent = x->parent;
  if (!x->parent)
    t->root = y;
  else if (x == x->parent->right)
    x->parent->right = y;
  else
    x->parent->left = y;
  y->right = x;
  x->parent = y;
}

static int is_red(rbtree_node_t *n) { return n && n->red; }

static void insert_fixup(rbtree_t *t, rbtree_node_t *z) {
  while (is_red(z->parent)) {
    rbtree_node_t *p = z->parent, *g = p->parent;
    if (p == g->left) {
      rbtree_node_t *u = g->right;
      if (is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
        continue;
      }
      if (z == p->right) {
        z = p;
        rotate_left(t, z);
        p = z->parent;
      }
      p->red = 0;
      g->red = 1;
      rotate_right(t, g);
    } else {
      rbtree_node_t *u = g->left;
      if (is_red(u)) {
        p->red = 0;
        u->red = 0;
        g->red = 1;
        z = g;
        continue;
      }
      if (z == p->left) {
        z = p;
        rotate_right(t, z);
        p = z->parent;
      }
      p->red = 0;
      g->red = 1;
      rotate_left(t, g);
    }
  }
  t->root->red = 0;
}

bool_t rbtree_insert(rbtree_t *t, void *key, void *data) {
  rbtree_node_t *parent = NULL, **link = &t->root;
  while (*link) {
    parent = *link;
    long c = compare(t, key, parent->key);
    if (c == 0)
      return FALSE;
    link = c < 0 ? &parent->left : &parent->right;
  }
  rbtree_node_t *n = TM_MALLOC(sizeof *n);
  if (!n)
    return FALSE;
  n->key = key;
  n->data = data;
  n->parent = parent;
  n->left = n->right = NULL;
  n->red = 1;
  *link = n;
  t->size++;
  insert_fixup(t, n);
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

/* Puts V in U's place under U's parent. */
static void transplant(rbtree_t *t, rbtree_node_t *u, rbtree_node_t *v) {
  if (!u->parent)
    t->root = v;
  else if (u == u->parent->left)
    u->parent->left = v;
  else
    u->parent->right = v;
  if (v)
    v->parent = u->parent;
}

/* X (possibly NULL) under PARENT carries an extra black. */
static void delete_fixup(rbtree_t *t, rbtree_node_t *x, rbtree_node_t *parent) {
  while (x != t->root && !is_red(x)) {
    if (x == parent->left) {
      rbtree_node_t *w = parent->right;
      if (is_red(w)) {
        w->red = 0;
        parent->red = 1;
        rotate_left(t, parent);
        w = parent->right;
      }
      if (!is_red(w->left) && !is_red(w->right)) {
        w->red = 1;
        x = parent;
        parent = x->parent;
      } else {
        if (!is_red(w->right)) {
          w->left->red = 0;
          w->red = 1;
          rotate_right(t, w);
          w = parent->right;
        }
        w->red = parent->red;
        parent->red = 0;
        if (w->right)
          w->right->red = 0;
        rotate_left(t, parent);
        x = t->root;
        parent = NULL;
      }
    } else {
      rbtree_node_t *w = parent->left;
      if (is_red(w)) {
        w->red = 0;
        parent->red = 1;
        rotate_right(t, parent);
        w = parent->left;
      }
      if (!is_red(w->left) && !is_red(w->right)) {
        w->red = 1;
        x = parent;
        parent = x->parent;
      } else {
        if (!is_red(w->left)) {
          w->right->red = 0;
          w->red = 1;
          rotate_left(t, w);
          w = parent->left;
        }
        w->red = parent->red;
        parent->red = 0;
        if (w->left)
          w->left->red = 0;
        rotate_right(t, parent);
        x = t->root;
        parent = NULL;
      }
    }
  }
  if (x)
    x->red = 0;
}

bool_t rbtree_delete(rbtree_t *t, void *key) {
  rbtree_node_t *z = lookup(t, key);
  if (!z)
    return FALSE;
  rbtree_node_t *x, *x_parent;
  int removed_red;
  if (!z->left || !z->right) {
    removed_red = z->red;
    x = z->left ? z->left : z->right;
    x_parent = z->parent;
    transplant(t, z, x);
  } else {
    rbtree_node_t *y = z->right;
    while (y->left)
      y = y->left;
    removed_red = y->red;
    x = y->right;
    if (y->parent == z) {
      x_parent = y;
    } else {
      x_parent = y->parent;
      transplant(t, y, y->right);
      y->right = z->right;
      y->right->parent = y;
    }
    transplant(t, z, y);
    y->left = z->left;
    y->left->parent = y;
    y->red = z->red;
  }
  TM_FREE(z);
  t->size--;
  if (!removed_red)
    delete_fixup(t, x, x_parent);
  return TRUE;
}

rbtree_node_t *rbtree_first(rbtree_t *t) {
  rbtree_node_t *n = t->root;
  while (n && n->left)
    n = n->left;
  return n;
}

rbtree_node_t *rbtree_next(rbtree_node_t *n) {
  if (n->right) {
    n = n->right;
    while (n->left)
      n = n->left;
    return n;
  }
  while (n->parent && n == n->parent->right)
    n = n->parent;
  return n->parent;
}

/* Black height of N's subtree, or -1 if a rule is broken below N. */
static long check(rbtree_t *t, rbtree_node_t *n, long *count) {
  if (!n)
    return 1;
  (*count)++;
  if ((n->left &&
       (n->left->parent != n || compare(t, n->left->key, n->key) >= 0)) ||
      (n->right &&
       (n->right->parent != n || compare(t, n->right->key, n->key) <= 0))) {
    fprintf(stderr, "rbtree: order or parent link broken\n");
    return -1;
  }
  if (n->red && (is_red(n->left) || is_red(n->right))) {
    fprintf(stderr, "rbtree: red node with a red child\n");
    return -1;
  }
  long l = check(t, n->left, count), r = check(t, n->right, count);
  if (l < 0 || r < 0)
    return -1;
  if (l != r) {
    fprintf(stderr, "rbtree: unequal black heights\n");
    return -1;
  }
  return l + !n->red;
}

long rbtree_verify(rbtree_t *t) {
  long count = 0;
  if (t->root && (t->root->red || t->root->parent)) {
    fprintf(stderr, "rbtree: bad root\n");
    return -1;
  }
  if (check(t, t->root, &count) < 0)
    return -1;
  if (count != t->size) {
    fprintf(stderr, "rbtree: %ld nodes, size says %ld\n", count, t->size);
    return -1;
  }
  return count;
}
