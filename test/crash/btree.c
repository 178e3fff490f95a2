/*
 * btree.c - crash workload: a persistent B+tree (at most 4 keys per node,
 * keys 0..127). Operation i deletes key k(i) if present, else inserts it with
 * a value of the operation. Inserts split full nodes on the way down
 * (preemptive splitting, a new root when the root is full); deletes remove
 * the key from its leaf without merging (a leaf may become empty; nodes are
 * never freed). Invariants: every node holds sorted keys within its parent's
 * separators, internal nodes have n+1 children, all leaves are at the same
 * depth and chained in key order, the key/value pairs are exactly those of
 * the first `done` operations of the commit order, and the heap holds
 * exactly the nodes.
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>
#include <string.h>

#define BT_KEYS 128
#define BT_MAX 4 /* keys per node */

struct bt_node {
  uint64_t leaf;
  uint64_t n;
  uint64_t keys[BT_MAX];
  /* leaf: values[i] of keys[i]; internal: child[i] holds keys < keys[i],
   * child[n] the rest */
  uint64_t values[BT_MAX];
  struct bt_node *child[BT_MAX + 1];
  struct bt_node *next; /* leaf chain */
};

struct bt_root {
  uint64_t done;
  struct bt_node *top;
};

static struct bt_node *bt_new(int leaf) {
  struct bt_node *x = ptm_malloc(sizeof *x);
  if (!x)
    workload_out_of_memory("B+tree node");
  memset(x, 0, sizeof *x);
  x->leaf = (uint64_t)leaf;
  return x;
}

/* Splits the full child c = p->child[i] into two; p is not full. */
static void bt_split(struct bt_node *p, uint64_t i) {
  struct bt_node *c = p->child[i];
  struct bt_node *s = bt_new((int)c->leaf);
  uint64_t sep;
  if (c->leaf) {
    /* keys 2,3 move to s; the separator is s's first key */
    s->n = BT_MAX / 2;
    for (uint64_t k = 0; k < s->n; k++) {
      s->keys[k] = c->keys[BT_MAX / 2 + k];
      s->values[k] = c->values[BT_MAX / 2 + k];
    }
    c->n = BT_MAX / 2;
    s->next = c->next;
    c->next = s;
    sep = s->keys[0];
  } else {
    /* key 2 goes up; keys 3.. and children 3.. move to s */
    sep = c->keys[BT_MAX / 2];
    s->n = BT_MAX - BT_MAX / 2 - 1;
    for (uint64_t k = 0; k < s->n; k++)
      s->keys[k] = c->keys[BT_MAX / 2 + 1 + k];
    for (uint64_t k = 0; k <= s->n; k++)
      s->child[k] = c->child[BT_MAX / 2 + 1 + k];
    c->n = BT_MAX / 2;
  }
  for (uint64_t k = p->n; k > i; k--) {
    p->keys[k] = p->keys[k - 1];
    p->child[k + 1] = p->child[k];
  }
  p->keys[i] = sep;
  p->child[i + 1] = s;
  p->n++;
}

static uint64_t bt_slot(const struct bt_node *x, uint64_t key) {
  uint64_t i = 0;
  while (i < x->n && key >= x->keys[i])
    i++;
  return i;
}

static void bt_insert(struct bt_root *r, uint64_t key, uint64_t value) {
  if (!r->top)
    r->top = bt_new(1);
  if (r->top->n == BT_MAX) {
    struct bt_node *t = bt_new(0);
    t->child[0] = r->top;
    bt_split(t, 0);
    r->top = t;
  }
  struct bt_node *x = r->top;
  while (!x->leaf) {
    uint64_t i = bt_slot(x, key);
    if (x->child[i]->n == BT_MAX) {
      bt_split(x, i);
      if (key >= x->keys[i])
        i++;
    }
    x = x->child[i];
  }
  uint64_t i = 0;
  while (i < x->n && x->keys[i] < key)
    i++;
  for (uint64_t k = x->n; k > i; k--) {
    x->keys[k] = x->keys[k - 1];
    x->values[k] = x->values[k - 1];
  }
  x->keys[i] = key;
  x->values[i] = value;
  x->n++;
}

/* 1 if KEY was present (and is now removed). */
static int bt_delete(struct bt_root *r, uint64_t key) {
  struct bt_node *x = r->top;
  if (!x)
    return 0;
  while (!x->leaf)
    x = x->child[bt_slot(x, key)];
  for (uint64_t i = 0; i < x->n; i++)
    if (x->keys[i] == key) {
      for (uint64_t k = i; k + 1 < x->n; k++) {
        x->keys[k] = x->keys[k + 1];
        x->values[k] = x->values[k + 1];
      }
      x->n--;
      return 1;
    }
  return 0;
}

static void btree_init(void *p, uint64_t seed) { (void)p, (void)seed; }

static uint64_t btree_op(void *p, uint64_t i, uint64_t seed) {
  struct bt_root *r = p;
  uint64_t key = op_rand(seed, i, 0) % BT_KEYS;
  uint64_t value = i * 1000 + key;
  uint64_t position = 0;
  PTM_BEGIN();
  if (!bt_delete(r, key))
    bt_insert(r, key, value);
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

/* ---- checker (plain reads, after recovery) ---- */

struct bt_walk {
  uint64_t model[BT_KEYS]; /* value, or UINT64_MAX: absent */
  int seen[BT_KEYS];
  const struct bt_node *leaves[BT_KEYS * 2];
  int nleaves, nodes, leaf_depth;
  char *why;
  size_t n;
};

static int bt_walk(struct bt_walk *w, const struct bt_node *x, int depth,
                   uint64_t lo, uint64_t hi) {
  if (!x) {
    snprintf(w->why, w->n, "btree: missing child at depth %d", depth);
    return 1;
  }
  if (++w->nodes > 2 * BT_KEYS || depth > 16) {
    snprintf(w->why, w->n, "btree: too many nodes or levels (a cycle?)");
    return 1;
  }
  if (x->n > BT_MAX || (!x->leaf && x->n == 0) || x->leaf > 1) {
    snprintf(w->why, w->n, "btree: node at depth %d has %llu keys (leaf %llu)",
             depth, (unsigned long long)x->n, (unsigned long long)x->leaf);
    return 1;
  }
  for (uint64_t i = 0; i < x->n; i++)
    if (x->keys[i] < lo || x->keys[i] >= hi ||
        (i > 0 && x->keys[i] <= x->keys[i - 1])) {
      snprintf(w->why, w->n,
               "btree: key %llu at depth %d is out of order or outside "
               "[%llu, %llu)",
               (unsigned long long)x->keys[i], depth, (unsigned long long)lo,
               (unsigned long long)hi);
      return 1;
    }
  if (x->leaf) {
    if (w->leaf_depth < 0)
      w->leaf_depth = depth;
    if (depth != w->leaf_depth) {
      snprintf(w->why, w->n, "btree: leaves at depths %d and %d", w->leaf_depth,
               depth);
      return 1;
    }
    w->leaves[w->nleaves++] = x;
    for (uint64_t i = 0; i < x->n; i++) {
      uint64_t k = x->keys[i];
      if (w->model[k] != x->values[i]) {
        snprintf(
            w->why, w->n, "btree: key %llu has value %llu, the model %s %llu",
            (unsigned long long)k, (unsigned long long)x->values[i],
            w->model[k] == UINT64_MAX ? "has no such key, value" : "has value",
            (unsigned long long)w->model[k]);
        return 1;
      }
      w->seen[k] = 1;
    }
    return 0;
  }
  for (uint64_t i = 0; i <= x->n; i++) {
    uint64_t clo = i == 0 ? lo : x->keys[i - 1];
    uint64_t chi = i == x->n ? hi : x->keys[i];
    if (bt_walk(w, x->child[i], depth + 1, clo, chi))
      return 1;
  }
  return 0;
}

static void btree_model(const uint64_t *order, uint64_t done, uint64_t seed,
                        uint64_t *model) {
  for (int k = 0; k < BT_KEYS; k++)
    model[k] = UINT64_MAX;
  for (uint64_t j = 0; j < done; j++) {
    uint64_t i = order[j];
    uint64_t key = op_rand(seed, i, 0) % BT_KEYS;
    model[key] = model[key] == UINT64_MAX ? i * 1000 + key : UINT64_MAX;
  }
}

static int btree_check(const void *p, const uint64_t *order, uint64_t done,
                       uint64_t seed, char *why, size_t n) {
  const struct bt_root *r = p;
  static struct bt_walk w;
  memset(&w, 0, sizeof w);
  w.why = why;
  w.n = n;
  w.leaf_depth = -1;
  btree_model(order, done, seed, w.model);
  if (r->top) {
    if (bt_walk(&w, r->top, 0, 0, UINT64_MAX))
      return 1;
    for (int i = 0; i < w.nleaves; i++)
      if (w.leaves[i]->next != (i + 1 < w.nleaves ? w.leaves[i + 1] : NULL)) {
        snprintf(why, n, "btree: the chain of leaves is broken after leaf %d",
                 i);
        return 1;
      }
  }
  for (int k = 0; k < BT_KEYS; k++)
    if (w.model[k] != UINT64_MAX && !w.seen[k]) {
      snprintf(why, n,
               "btree: key %d (value %llu) is missing after %llu "
               "operations",
               k, (unsigned long long)w.model[k], (unsigned long long)done);
      return 1;
    }
  return 0;
}

static long bt_count(const struct bt_node *x) {
  long c = 1;
  if (!x->leaf)
    for (uint64_t i = 0; i <= x->n; i++)
      c += bt_count(x->child[i]);
  return c;
}

/* Called after btree_check passed: the tree is sound. */
static long btree_blocks(const void *p) {
  const struct bt_root *r = p;
  return 1 + (r->top ? bt_count(r->top) : 0);
}

const struct workload btree_workload = {
    "btree",     sizeof(struct bt_root), btree_init, btree_op,
    btree_check, btree_blocks,           0,          NULL};
