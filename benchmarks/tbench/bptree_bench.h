/*
 * bptree_bench.h - what the two B+tree workloads (bptree_insert, bptree_mix)
 * share: the root object (the tree and the per-thread tallies kept with it:
 * v[0] keys inserted, v[1] keys removed, see tx_slots.h), its creation, the
 * insert counted in its own transaction, and the check of every stored
 * value.
 */
#ifndef PTM_TBENCH_BPTREE_BENCH_H
#define PTM_TBENCH_BPTREE_BENCH_H

#include "bench.h"
#include "bptree.h"
#include "tx_slots.h"

#include <stdint.h>

typedef struct bptree_bench {
  bptree_t tree;
  tx_slot_t *slots;
} bptree_bench_t;

/* The root object with an empty tree; NAME for messages (exits on failure). */
bptree_bench_t *bptree_bench_open(const char *name);

/* One transaction inserting KEY with BPTREE_VALUE_OF(KEY); a successful
 * insert is counted in SLOT's v[0] in the same transaction (SLOT NULL: not
 * counted). Returns 1 if inserted, 0 if present; exits when the pool is
 * full. */
int bptree_bench_insert(bptree_bench_t *b, tx_slot_t *slot, uint64_t key);

/* bptree_check, and every value BPTREE_VALUE_OF its key: the number of
 * keys, or -1 after a message on stderr. */
long bptree_bench_check(const bptree_bench_t *b);

#endif /* PTM_TBENCH_BPTREE_BENCH_H */
