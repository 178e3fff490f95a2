/*
 * pmdk_bptree.h - the B+tree of the PMDK peers (bptree_insert.pmdk,
 * bptree_mix.pmdk), the same algorithm as benchmarks/tbench/bptree.h (same
 * order, fill, top-down split and refill), written with libpmemobj: nodes
 * are TOID objects of the pool, a node is snapshotted with TX_ADD before its
 * first change in a transaction, allocated with TX_NEW and freed with
 * TX_FREE. Insert and remove run inside a libpmemobj transaction (the
 * caller's, holding the tree's write lock); lookup and range under the read
 * lock.
 */
#ifndef PTM_PMDK_BPTREE_H
#define PTM_PMDK_BPTREE_H

#include "bench_params.h"

#include <libpmemobj.h>
#include <stdint.h>

#define PBPTREE_MIN_KEYS (BPTREE_ORDER / 2 - 1)

TOID_DECLARE(struct pbnode, 1);
TOID_DECLARE(struct pbtree, 2);

struct pbnode {
  int leaf;
  int nkeys;
  uint64_t keys[BPTREE_ORDER];
  TOID(struct pbnode) child[BPTREE_ORDER + 1]; /* inner nodes */
  uint64_t val[BPTREE_ORDER];                  /* leaves */
  TOID(struct pbnode) next;                    /* leaves: next in order */
};

struct pbtree {
  PMEMrwlock lock;
  TOID(struct pbnode) root;
  long height;
};

/* Inside a transaction. */
void pbtree_init(struct pbtree *t);
int pbtree_insert(struct pbtree *t, uint64_t key, uint64_t val);
int pbtree_remove(struct pbtree *t, uint64_t key);

/* Under the read lock (or alone). */
int pbtree_lookup(const struct pbtree *t, uint64_t key, uint64_t *val);
long pbtree_range(const struct pbtree *t, uint64_t lo, uint64_t hi,
                  uint64_t *sum);

/* Alone: the invariants of bptree_check (bptree.h); number of keys or -1
 * after a message. VISIT (if not NULL) sees every key in order. */
long pbtree_check(const struct pbtree *t, const char *who,
                  void (*visit)(uint64_t key, uint64_t val, void *arg),
                  void *arg);

#endif /* PTM_PMDK_BPTREE_H */
