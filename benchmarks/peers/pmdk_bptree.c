/* The PMDK peers' B+tree: see pmdk_bptree.h. */
#include "pmdk_bptree.h"

#include <stdio.h>

typedef TOID(struct pbnode) node_t;

/* N, snapshotted for this transaction, writable. */
static struct pbnode *W(node_t n) {
  TX_ADD(n);
  return D_RW(n);
}

static node_t new_node(int leaf) {
  node_t n = TX_NEW(struct pbnode);
  struct pbnode *p = D_RW(n);
  p->leaf = leaf;
  p->nkeys = 0;
  p->next = TOID_NULL(struct pbnode);
  return n;
}

static int child_index(const struct pbnode *n, uint64_t key) {
  int i = 0;
  while (i < n->nkeys && key >= n->keys[i])
    i++;
  return i;
}

static int leaf_index(const struct pbnode *n, uint64_t key) {
  int i = 0;
  while (i < n->nkeys && n->keys[i] < key)
    i++;
  return i;
}

void pbtree_init(struct pbtree *t) {
  pmemobj_tx_add_range_direct(t, sizeof *t);
  t->root = new_node(1);
  t->height = 1;
}

static void split_child(struct pbnode *p, int i) {
  struct pbnode *c = W(p->child[i]);
  node_t rn = new_node(c->leaf);
  struct pbnode *r = D_RW(rn);
  const int half = BPTREE_ORDER / 2;
  uint64_t sep;
  if (c->leaf) {
    r->nkeys = c->nkeys - half;
    for (int j = 0; j < r->nkeys; j++) {
      r->keys[j] = c->keys[half + j];
      r->val[j] = c->val[half + j];
    }
    c->nkeys = half;
    r->next = c->next;
    c->next = rn;
    sep = r->keys[0];
  } else {
    r->nkeys = c->nkeys - half - 1;
    for (int j = 0; j < r->nkeys; j++)
      r->keys[j] = c->keys[half + 1 + j];
    for (int j = 0; j <= r->nkeys; j++)
      r->child[j] = c->child[half + 1 + j];
    sep = c->keys[half];
    c->nkeys = half;
  }
  for (int j = p->nkeys; j > i; j--) {
    p->keys[j] = p->keys[j - 1];
    p->child[j + 1] = p->child[j];
  }
  p->keys[i] = sep;
  p->child[i + 1] = rn;
  p->nkeys++;
}

int pbtree_insert(struct pbtree *t, uint64_t key, uint64_t val) {
  node_t nn = t->root;
  if (D_RO(nn)->nkeys == BPTREE_ORDER) {
    node_t rn = new_node(0);
    D_RW(rn)->child[0] = nn;
    split_child(D_RW(rn), 0);
    TX_ADD_FIELD_DIRECT(t, root);
    TX_ADD_FIELD_DIRECT(t, height);
    t->root = rn;
    t->height++;
    nn = rn;
  }
  while (!D_RO(nn)->leaf) {
    const struct pbnode *n = D_RO(nn);
    int i = child_index(n, key);
    if (D_RO(n->child[i])->nkeys == BPTREE_ORDER) {
      struct pbnode *w = W(nn);
      split_child(w, i);
      if (key >= w->keys[i])
        i++;
    }
    nn = D_RO(nn)->child[i];
  }
  const struct pbnode *n = D_RO(nn);
  int i = leaf_index(n, key);
  if (i < n->nkeys && n->keys[i] == key)
    return 0;
  struct pbnode *w = W(nn);
  for (int j = w->nkeys; j > i; j--) {
    w->keys[j] = w->keys[j - 1];
    w->val[j] = w->val[j - 1];
  }
  w->keys[i] = key;
  w->val[i] = val;
  w->nkeys++;
  return 1;
}

static node_t find_leaf(const struct pbtree *t, uint64_t key) {
  node_t n = t->root;
  while (!D_RO(n)->leaf)
    n = D_RO(n)->child[child_index(D_RO(n), key)];
  return n;
}

int pbtree_lookup(const struct pbtree *t, uint64_t key, uint64_t *val) {
  const struct pbnode *n = D_RO(find_leaf(t, key));
  int i = leaf_index(n, key);
  if (i < n->nkeys && n->keys[i] == key) {
    *val = n->val[i];
    return 1;
  }
  return 0;
}

long pbtree_range(const struct pbtree *t, uint64_t lo, uint64_t hi,
                  uint64_t *sum) {
  node_t nn = find_leaf(t, lo);
  int i = leaf_index(D_RO(nn), lo);
  long count = 0;
  uint64_t s = 0;
  while (!TOID_IS_NULL(nn)) {
    const struct pbnode *n = D_RO(nn);
    for (; i < n->nkeys; i++) {
      if (n->keys[i] >= hi) {
        *sum = s;
        return count;
      }
      s += n->val[i];
      count++;
    }
    nn = n->next;
    i = 0;
  }
  *sum = s;
  return count;
}

static void borrow_from_left(struct pbnode *p, int i) {
  struct pbnode *c = W(p->child[i]), *l = W(p->child[i - 1]);
  for (int j = c->nkeys; j > 0; j--)
    c->keys[j] = c->keys[j - 1];
  if (c->leaf) {
    for (int j = c->nkeys; j > 0; j--)
      c->val[j] = c->val[j - 1];
    c->keys[0] = l->keys[l->nkeys - 1];
    c->val[0] = l->val[l->nkeys - 1];
    p->keys[i - 1] = c->keys[0];
  } else {
    for (int j = c->nkeys + 1; j > 0; j--)
      c->child[j] = c->child[j - 1];
    c->keys[0] = p->keys[i - 1];
    c->child[0] = l->child[l->nkeys];
    p->keys[i - 1] = l->keys[l->nkeys - 1];
  }
  l->nkeys--;
  c->nkeys++;
}

static void borrow_from_right(struct pbnode *p, int i) {
  struct pbnode *c = W(p->child[i]), *r = W(p->child[i + 1]);
  if (c->leaf) {
    c->keys[c->nkeys] = r->keys[0];
    c->val[c->nkeys] = r->val[0];
    for (int j = 0; j < r->nkeys - 1; j++) {
      r->keys[j] = r->keys[j + 1];
      r->val[j] = r->val[j + 1];
    }
    p->keys[i] = r->keys[0];
  } else {
    c->keys[c->nkeys] = p->keys[i];
    c->child[c->nkeys + 1] = r->child[0];
    p->keys[i] = r->keys[0];
    for (int j = 0; j < r->nkeys - 1; j++)
      r->keys[j] = r->keys[j + 1];
    for (int j = 0; j < r->nkeys; j++)
      r->child[j] = r->child[j + 1];
  }
  r->nkeys--;
  c->nkeys++;
}

static void merge_children(struct pbnode *p, int i) {
  node_t rn = p->child[i + 1];
  struct pbnode *l = W(p->child[i]);
  const struct pbnode *r = D_RO(rn);
  if (l->leaf) {
    for (int j = 0; j < r->nkeys; j++) {
      l->keys[l->nkeys + j] = r->keys[j];
      l->val[l->nkeys + j] = r->val[j];
    }
    l->nkeys += r->nkeys;
    l->next = r->next;
  } else {
    l->keys[l->nkeys] = p->keys[i];
    for (int j = 0; j < r->nkeys; j++)
      l->keys[l->nkeys + 1 + j] = r->keys[j];
    for (int j = 0; j <= r->nkeys; j++)
      l->child[l->nkeys + 1 + j] = r->child[j];
    l->nkeys += 1 + r->nkeys;
  }
  for (int j = i; j < p->nkeys - 1; j++) {
    p->keys[j] = p->keys[j + 1];
    p->child[j + 1] = p->child[j + 2];
  }
  p->nkeys--;
  TX_FREE(rn);
}

static void refill_child(struct pbnode *p, int i) {
  if (i > 0 && D_RO(p->child[i - 1])->nkeys > PBPTREE_MIN_KEYS)
    borrow_from_left(p, i);
  else if (i < p->nkeys && D_RO(p->child[i + 1])->nkeys > PBPTREE_MIN_KEYS)
    borrow_from_right(p, i);
  else if (i > 0)
    merge_children(p, i - 1);
  else
    merge_children(p, i);
}

int pbtree_remove(struct pbtree *t, uint64_t key) {
  node_t nn = t->root;
  while (!D_RO(nn)->leaf) {
    int i = child_index(D_RO(nn), key);
    if (D_RO(D_RO(nn)->child[i])->nkeys <= PBPTREE_MIN_KEYS) {
      struct pbnode *w = W(nn);
      refill_child(w, i);
      if (w->nkeys == 0) {
        TX_ADD_FIELD_DIRECT(t, root);
        TX_ADD_FIELD_DIRECT(t, height);
        t->root = w->child[0];
        t->height--;
        TX_FREE(nn);
        nn = t->root;
        continue;
      }
      i = child_index(w, key);
    }
    nn = D_RO(nn)->child[i];
  }
  const struct pbnode *n = D_RO(nn);
  int i = leaf_index(n, key);
  if (i == n->nkeys || n->keys[i] != key)
    return 0;
  struct pbnode *w = W(nn);
  for (int j = i; j < w->nkeys - 1; j++) {
    w->keys[j] = w->keys[j + 1];
    w->val[j] = w->val[j + 1];
  }
  w->nkeys--;
  return 1;
}

struct check {
  const struct pbtree *t;
  const char *who;
  node_t prev_leaf;
  long keys;
  void (*visit)(uint64_t, uint64_t, void *);
  void *arg;
};

static int check_node(struct check *c, node_t nn, long depth, uint64_t lo,
                      int has_lo, uint64_t hi, int has_hi) {
  const struct pbnode *n = D_RO(nn);
  const char *who = c->who;
  int is_root = TOID_EQUALS(nn, c->t->root);
  int min = is_root ? (n->leaf ? 0 : 1) : PBPTREE_MIN_KEYS;
  if (n->nkeys < min || n->nkeys > BPTREE_ORDER) {
    fprintf(stderr, "%s: B+tree node at depth %ld has %d keys\n", who, depth,
            n->nkeys);
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
    if (!TOID_IS_NULL(c->prev_leaf) &&
        !TOID_EQUALS(D_RO(c->prev_leaf)->next, nn)) {
      fprintf(stderr, "%s: B+tree leaf chain broken\n", who);
      return 0;
    }
    c->prev_leaf = nn;
    c->keys += n->nkeys;
    if (c->visit)
      for (int j = 0; j < n->nkeys; j++)
        c->visit(n->keys[j], n->val[j], c->arg);
    return 1;
  }
  if (depth >= c->t->height) {
    fprintf(stderr, "%s: B+tree inner node at depth %ld, height is %ld\n", who,
            depth, c->t->height);
    return 0;
  }
  for (int j = 0; j <= n->nkeys; j++)
    if (TOID_IS_NULL(n->child[j]) ||
        !check_node(c, n->child[j], depth + 1, j ? n->keys[j - 1] : lo,
                    j ? 1 : has_lo, j < n->nkeys ? n->keys[j] : hi,
                    j < n->nkeys ? 1 : has_hi))
      return 0;
  return 1;
}

long pbtree_check(const struct pbtree *t, const char *who,
                  void (*visit)(uint64_t key, uint64_t val, void *arg),
                  void *arg) {
  if (TOID_IS_NULL(t->root) || t->height < 1) {
    fprintf(stderr, "%s: B+tree has no root\n", who);
    return -1;
  }
  struct check c = {t, who, TOID_NULL(struct pbnode), 0, visit, arg};
  if (!check_node(&c, t->root, 1, 0, 0, 0, 0))
    return -1;
  if (!TOID_IS_NULL(D_RO(c.prev_leaf)->next)) {
    fprintf(stderr, "%s: B+tree last leaf has a successor\n", who);
    return -1;
  }
  return c.keys;
}
