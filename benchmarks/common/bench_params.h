/*
 * bench_params.h - workload constants shared by our benchmarks and their
 * PMDK peers (benchmarks/peers/), so both run exactly the same key
 * distribution and operation mix. Options (-k, -u, ...) override the
 * defaults in both.
 */
#ifndef PTM_BENCH_PARAMS_H
#define PTM_BENCH_PARAMS_H

/* hashset (benchmarks/micro/hashset.c, peers/hashset_pmdk.c) */
#define HASHSET_KEY_RANGE 4096
#define HASHSET_UPDATE_PERCENT 20
#define HASHSET_BUCKETS 1024

/* bptree_insert: random keys in [0, KEY_RANGE) into an empty tree. */
#define BPTREE_INSERT_KEY_RANGE (1L << 24)

/* bptree_mix: an even mix of lookup, insert, range query and remove (the
 * paper, Section III-C) on a tree that starts half full. */
#define BPTREE_MIX_KEY_RANGE (1L << 16)
#define BPTREE_MIX_LOOKUP_PERCENT 25
#define BPTREE_MIX_INSERT_PERCENT 25
#define BPTREE_MIX_RANGE_PERCENT 25
/* remove: the remaining 25 percent */
#define BPTREE_MIX_RANGE_WIDTH 100 /* a range query spans this many keys */

/* The B+tree: at most BPTREE_ORDER keys per node. */
#define BPTREE_ORDER 16

/* The value stored with key K (checked by validation). */
#define BPTREE_VALUE_OF(k) ((unsigned long)(k) * 2654435761UL + 1)

#endif /* PTM_BENCH_PARAMS_H */
