/* The B+tree of the tbench benchmarks: see bptree.h. */
#include "bptree.h"

#include <stdio.h>

static bpnode_t *new_node(int leaf) {
  bpnode_t *n = ptm_malloc(sizeof *n);
  if (!n)
    return NULL;
  n->leaf = leaf;
  n->nkeys = 0;
  n->next = NULL;
  return n;
}

/* The child of inner node N whose subtree holds KEY: keys equal to a
 * separator live on its right. */
static int child_index(const bpnode_t *n, uint64_t key) {
  int i = 0;
  while (i < n->nkeys && key >= n->keys[i])
    i++;
  return i;
}

/* The first position of leaf N whose key is >= KEY. */
static int leaf_index(const bpnode_t *n, uint64_t key) {
  int i = 0;
  while (i < n->nkeys && n->keys[i] < key)
    i++;
  return i;
}

BENCH_TX_SAFE int bptree_init(bptree_t *t) {
  t->root = new_node(1);
  t->height = 1;
  return t->root != NULL;
}

/* Splits the full child I of inner node P, which has room for one more key.
 * 0 if out of memory (nothing changed). */
static int split_child(bpnode_t *p, int i) {
  bpnode_t *c = p->u.child[i];
  bpnode_t *r = new_node(c->leaf);
  if (!r)
    return 0;
  const int half = BPTREE_ORDER / 2;
  uint64_t sep;
  if (c->leaf) {
    r->nkeys = c->nkeys - half;
    for (int j = 0; j < r->nkeys; j++) {
      r->keys[j] = c->keys[half + j];
      r->u.val[j] = c->u.val[half + j];
    }
    c->nkeys = half;
    r->next = c->next;
    c->next = r;
    sep = r->keys[0];
  } else {
    /* keys[half] moves up into P */
    r->nkeys = c->nkeys - half - 1;
    for (int j = 0; j < r->nkeys; j++)
      r->keys[j] = c->keys[half + 1 + j];
    for (int j = 0; j <= r->nkeys; j++)
      r->u.child[j] = c->u.child[half + 1 + j];
    sep = c->keys[half];
    c->nkeys = half;
  }
  for (int j = p->nkeys; j > i; j--) {
    p->keys[j] = p->keys[j - 1];
    p->u.child[j + 1] = p->u.child[j];
  }
  p->keys[i] = sep;
  p->u.child[i + 1] = r;
  p->nkeys++;
  return 1;
}

BENCH_TX_SAFE int bptree_insert(bptree_t *t, uint64_t key, uint64_t val) {
  bpnode_t *n = t->root;
  if (n->nkeys == BPTREE_ORDER) {
    bpnode_t *r = new_node(0);
    if (!r)
      return -1;
    r->u.child[0] = n;
    if (!split_child(r, 0)) {
      ptm_free(r);
      return -1;
    }
    t->root = r;
    t->height++;
    n = r;
  }
  while (!n->leaf) {
    int i = child_index(n, key);
    if (n->u.child[i]->nkeys == BPTREE_ORDER) {
      if (!split_child(n, i))
        return -1;
      if (key >= n->keys[i])
        i++;
    }
    n = n->u.child[i];
  }
  int i = leaf_index(n, key);
  if (i < n->nkeys && n->keys[i] == key)
    return 0;
  for (int j = n->nkeys; j > i; j--) {
    n->keys[j] = n->keys[j - 1];
    n->u.val[j] = n->u.val[j - 1];
  }
  n->keys[i] = key;
  n->u.val[i] = val;
  n->nkeys++;
  return 1;
}

static const bpnode_t *find_leaf(const bptree_t *t, uint64_t key) {
  const bpnode_t *n = t->root;
  while (!n->leaf)
    n = n->u.child[child_index(n, key)];
  return n;
}

BENCH_TX_SAFE int bptree_lookup(const bptree_t *t, uint64_t key,
                                uint64_t *val) {
  const bpnode_t *n = find_leaf(t, key);
  int i = leaf_index(n, key);
  if (i < n->nkeys && n->keys[i] == key) {
    *val = n->u.val[i];
    return 1;
  }
  return 0;
}

BENCH_TX_SAFE long bptree_range(const bptree_t *t, uint64_t lo, uint64_t hi,
                                uint64_t *sum) {
  const bpnode_t *n = find_leaf(t, lo);
  int i = leaf_index(n, lo);
  long count = 0;
  uint64_t s = 0;
  while (n) {
    for (; i < n->nkeys; i++) {
      if (n->keys[i] >= hi) {
        *sum = s;
        return count;
      }
      s += n->u.val[i];
      count++;
    }
    n = n->next;
    i = 0;
  }
  *sum = s;
  return count;
}

/* Child I of P gets one key from its left sibling. */
static void borrow_from_left(bpnode_t *p, int i) {
  bpnode_t *c = p->u.child[i], *l = p->u.child[i - 1];
  for (int j = c->nkeys; j > 0; j--)
    c->keys[j] = c->keys[j - 1];
  if (c->leaf) {
    for (int j = c->nkeys; j > 0; j--)
      c->u.val[j] = c->u.val[j - 1];
    c->keys[0] = l->keys[l->nkeys - 1];
    c->u.val[0] = l->u.val[l->nkeys - 1];
    p->keys[i - 1] = c->keys[0];
  } else {
    for (int j = c->nkeys + 1; j > 0; j--)
      c->u.child[j] = c->u.child[j - 1];
    c->keys[0] = p->keys[i - 1];
    c->u.child[0] = l->u.child[l->nkeys];
    p->keys[i - 1] = l->keys[l->nkeys - 1];
  }
  l->nkeys--;
  c->nkeys++;
}

/* Child I of P gets one key from its right sibling. */
static void borrow_from_right(bpnode_t *p, int i) {
  bpnode_t *c = p->u.child[i], *r = p->u.child[i + 1];
  if (c->leaf) {
    c->keys[c->nkeys] = r->keys[0];
    c->u.val[c->nkeys] = r->u.val[0];
    for (int j = 0; j < r->nkeys - 1; j++) {
      r->keys[j] = r->keys[j + 1];
      r->u.val[j] = r->u.val[j + 1];
    }
    p->keys[i] = r->keys[0];
  } else {
    c->keys[c->nkeys] = p->keys[i];
    c->u.child[c->nkeys + 1] = r->u.child[0];
    p->keys[i] = r->keys[0];
    for (int j = 0; j < r->nkeys - 1; j++)
      r->keys[j] = r->keys[j + 1];
    for (int j = 0; j < r->nkeys; j++)
      r->u.child[j] = r->u.child[j + 1];
  }
  r->nkeys--;
  c->nkeys++;
}

/* Merges child I+1 of P into child I, and frees it. */
static void merge_children(bpnode_t *p, int i) {
  bpnode_t *l = p->u.child[i], *r = p->u.child[i + 1];
  if (l->leaf) {
    for (int j = 0; j < r->nkeys; j++) {
      l->keys[l->nkeys + j] = r->keys[j];
      l->u.val[l->nkeys + j] = r->u.val[j];
    }
    l->nkeys += r->nkeys;
    l->next = r->next;
  } else {
    l->keys[l->nkeys] = p->keys[i];
    for (int j = 0; j < r->nkeys; j++)
      l->keys[l->nkeys + 1 + j] = r->keys[j];
    for (int j = 0; j <= r->nkeys; j++)
      l->u.child[l->nkeys + 1 + j] = r->u.child[j];
    l->nkeys += 1 + r->nkeys;
  }
  for (int j = i; j < p->nkeys - 1; j++) {
    p->keys[j] = p->keys[j + 1];
    p->u.child[j + 1] = p->u.child[j + 2];
  }
  p->nkeys--;
  ptm_free(r);
}

/* Child I of P is at the minimum: give it one more key. */
static void refill_child(bpnode_t *p, int i) {
  if (i > 0 && p->u.child[i - 1]->nkeys > BPTREE_MIN_KEYS)
    borrow_from_left(p, i);
  else if (i < p->nkeys && p->u.child[i + 1]->nkeys > BPTREE_MIN_KEYS)
    borrow_from_right(p, i);
  else if (i > 0)
    merge_children(p, i - 1);
  else
    merge_children(p, i);
}

BENCH_TX_SAFE int bptree_remove(bptree_t *t, uint64_t key) {
  bpnode_t *n = t->root;
  while (!n->leaf) {
    int i = child_index(n, key);
    if (n->u.child[i]->nkeys <= BPTREE_MIN_KEYS) {
      refill_child(n, i);
      if (n->nkeys == 0) { /* only the root can empty: one level less */
        t->root = n->u.child[0];
        t->height--;
        ptm_free(n);
        n = t->root;
        continue;
      }
      i = child_index(n, key);
    }
    n = n->u.child[i];
  }
  int i = leaf_index(n, key);
  if (i == n->nkeys || n->keys[i] != key)
    return 0;
  for (int j = i; j < n->nkeys - 1; j++) {
    n->keys[j] = n->keys[j + 1];
    n->u.val[j] = n->u.val[j + 1];
  }
  n->nkeys--;
  return 1;
}

struct check {
  const bptree_t *t;
  const char *who;
  const bpnode_t *prev_leaf;
  long keys;
  void (*visit)(uint64_t, uint64_t, void *);
  void *arg;
};

/* Keys of N's subtree must lie in [lo, hi) (a bound is absent when its
 * flag is 0). */
static int check_node(struct check *c, const bpnode_t *n, long depth,
                      uint64_t lo, int has_lo, uint64_t hi, int has_hi) {
  const char *who = c->who;
  int min = n == c->t->root ? (n->leaf ? 0 : 1) : BPTREE_MIN_KEYS;
  if (n->nkeys < min || n->nkeys > BPTREE_ORDER) {
    fprintf(stderr,
            "%s: B+tree node at depth %ld has %d keys (allowed %d..%d)\n", who,
            depth, n->nkeys, min, BPTREE_ORDER);
    return 0;
  }
  for (int j = 0; j < n->nkeys; j++) {
    uint64_t k = n->keys[j];
    if ((j > 0 && n->keys[j - 1] >= k) || (has_lo && k < lo) ||
        (has_hi && k >= hi)) {
      fprintf(stderr, "%s: B+tree key %llu out of order at depth %ld\n", who,
              (unsigned long long)k, depth);
      return 0;
    }
  }
  if (n->leaf) {
    if (depth != c->t->height) {
      fprintf(stderr, "%s: B+tree leaf at depth %ld, height is %ld\n", who,
              depth, c->t->height);
      return 0;
    }
    if (c->prev_leaf && c->prev_leaf->next != n) {
      fprintf(stderr, "%s: B+tree leaf chain broken before key %llu\n", who,
              n->nkeys ? (unsigned long long)n->keys[0] : 0ULL);
      return 0;
    }
    c->prev_leaf = n;
    c->keys += n->nkeys;
    if (c->visit)
      for (int j = 0; j < n->nkeys; j++)
        c->visit(n->keys[j], n->u.val[j], c->arg);
    return 1;
  }
  if (depth >= c->t->height) {
    fprintf(stderr, "%s: B+tree inner node at depth %ld, height is %ld\n", who,
            depth, c->t->height);
    return 0;
  }
  for (int j = 0; j <= n->nkeys; j++) {
    if (!n->u.child[j]) {
      fprintf(stderr, "%s: B+tree inner node with a NULL child\n", who);
      return 0;
    }
    if (!check_node(c, n->u.child[j], depth + 1, j ? n->keys[j - 1] : lo,
                    j ? 1 : has_lo, j < n->nkeys ? n->keys[j] : hi,
                    j < n->nkeys ? 1 : has_hi))
      return 0;
  }
  return 1;
}

long bptree_check(const bptree_t *t, const char *who,
                  void (*visit)(uint64_t key, uint64_t val, void *arg),
                  void *arg) {
  if (!t->root || t->height < 1) {
    fprintf(stderr, "%s: B+tree has no root\n", who);
    return -1;
  }
  struct check c = {t, who, NULL, 0, visit, arg};
  if (!check_node(&c, t->root, 1, 0, 0, 0, 0))
    return -1;
  if (c.prev_leaf->next) {
    fprintf(stderr, "%s: B+tree last leaf has a successor\n", who);
    return -1;
  }
  return c.keys;
}
