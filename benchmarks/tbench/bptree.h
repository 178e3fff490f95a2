/*
 * bptree.h - a B+tree of 64-bit keys and values for the tbench benchmarks
 * (bptree_insert, bptree_mix, and the index of tpcc_bptree). Nodes hold at
 * most BPTREE_ORDER keys (bench_params.h), every node but the root at least
 * BPTREE_MIN_KEYS; values live in the leaves, which are linked in key order
 * for range queries. Nodes come from ptm_malloc inside the transaction that
 * links them in and go back with ptm_free inside the one that unlinks them.
 *
 * Insert and remove work top-down in one pass: a full child is split before
 * the descent enters it, a child at the minimum is refilled (borrowing from a
 * sibling or merging with it) before the descent enters it, so no change
 * ever travels back up.
 *
 * Every operation but bptree_check runs inside a transaction.
 */
#ifndef PTM_TBENCH_BPTREE_H
#define PTM_TBENCH_BPTREE_H

#include "bench.h"
#include "bench_params.h"

#include <stdint.h>

#define BPTREE_MIN_KEYS (BPTREE_ORDER / 2 - 1)

typedef struct bpnode {
  int leaf;
  int nkeys;
  uint64_t keys[BPTREE_ORDER];
  union {
    struct bpnode *child[BPTREE_ORDER + 1]; /* inner nodes */
    uint64_t val[BPTREE_ORDER + 1];         /* leaves */
  } u;
  struct bpnode *next; /* leaves: the next leaf in key order */
} bpnode_t;

typedef struct bptree {
  bpnode_t *root;
  long height; /* levels; 1 when the root is a leaf */
} bptree_t;

/* An empty tree (one empty leaf). 0 if out of memory. */
BENCH_TX_SAFE int bptree_init(bptree_t *t);

/* Inserts KEY with VAL: 1 if inserted, 0 if KEY was present (its value is
 * left as it was), -1 if out of memory (the tree is still valid). */
BENCH_TX_SAFE int bptree_insert(bptree_t *t, uint64_t key, uint64_t val);

/* 1 and *VAL if KEY is present, else 0. */
BENCH_TX_SAFE int bptree_lookup(const bptree_t *t, uint64_t key, uint64_t *val);

/* Removes KEY: 1 if it was present, else 0. */
BENCH_TX_SAFE int bptree_remove(bptree_t *t, uint64_t key);

/* The number of keys in [lo, hi); their values summed into *SUM. */
BENCH_TX_SAFE long bptree_range(const bptree_t *t, uint64_t lo, uint64_t hi,
                                uint64_t *sum);

/* Outside transactions: checks every invariant (keys sorted and within their
 * separators, fill of every non-root node, all leaves at depth `height`,
 * leaves linked in order, ending with NULL), calling VISIT (if not NULL) on
 * every key in order. Returns the number of keys, or -1 after printing the
 * first violation (prefixed with WHO) on stderr. */
long bptree_check(const bptree_t *t, const char *who,
                  void (*visit)(uint64_t key, uint64_t val, void *arg),
                  void *arg);

#endif /* PTM_TBENCH_BPTREE_H */
