/*
 * pmdk_bptree_bench.h - what bptree_insert.pmdk and bptree_mix.pmdk share:
 * the pool's root (the tree and per-thread counts kept in the pool), its
 * creation, the three operations each wrapped as a PMDK user wraps them
 * (updates: a libpmemobj transaction holding the tree's write lock;
 * lookups and range queries: the read lock), and the final validation.
 */
#ifndef PTM_PMDK_BPTREE_BENCH_H
#define PTM_PMDK_BPTREE_BENCH_H

#include "bench.h"
#include "pmdk_bptree.h"

#include <stdint.h>

/* Creates the pool and an empty tree (exits on failure). */
void pbench_open(const char *name, char **argv);

/* The operations, counted in pmdk_ptm's statistics; THREAD is the worker's
 * id (-1 during setup). insert and remove return 1 when they changed the
 * tree and update that thread's counts in the same transaction. */
int pbench_insert(long thread, uint64_t key);
int pbench_remove(long thread, uint64_t key);
int pbench_lookup(uint64_t key);
long pbench_range(uint64_t lo, uint64_t hi);

/* Validation: the tree's invariants, every value BPTREE_VALUE_OF its key,
 * and keys = INITIAL + inserts - removes, as counted in the pool and by the
 * workers (count[0] inserts, count[1] removes). Prints the outcome; 1 if
 * valid. */
int pbench_validate(const char *name, long initial);

/* Closes the pool. */
void pbench_close(void);

#endif /* PTM_PMDK_BPTREE_BENCH_H */
