/*
 * hashtable.h - a hash table of 64-bit keys and values for the tbench
 * benchmarks (the index of tpcc_hash and tatp): a fixed power-of-two number
 * of buckets, each a chain of nodes allocated with ptm_malloc inside the
 * inserting transaction (ptm_free inside the removing one). Keys are mixed
 * before the bucket is chosen, so composite keys spread evenly.
 *
 * Every operation but hashtable_check runs inside a transaction.
 */
#ifndef PTM_TBENCH_HASHTABLE_H
#define PTM_TBENCH_HASHTABLE_H

#include "bench.h"

#include <stdint.h>

typedef struct htnode {
  uint64_t key;
  uint64_t val;
  struct htnode *next;
} htnode_t;

typedef struct hashtable {
  uint64_t mask; /* buckets - 1 */
  htnode_t **buckets;
} hashtable_t;

/* A full 64-bit mix of KEY (MurmurHash3's finalizer): every key bit
 * reaches the low bits a bucket mask keeps, so composite keys spread
 * evenly. (The PMDK peer's tpcc index uses it too.) */
static inline uint64_t hashtable_mix(uint64_t key) {
  uint64_t x = key;
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ULL;
  x ^= x >> 33;
  return x;
}

/* An empty table with at least MIN_BUCKETS buckets (rounded up to a power
 * of two). 0 if out of memory. */
BENCH_TX_SAFE int hashtable_init(hashtable_t *h, uint64_t min_buckets);

/* 1 if inserted, 0 if KEY was present (value unchanged), -1 if out of
 * memory. */
BENCH_TX_SAFE int hashtable_insert(hashtable_t *h, uint64_t key, uint64_t val);

/* 1 and *VAL if KEY is present, else 0. */
BENCH_TX_SAFE int hashtable_lookup(const hashtable_t *h, uint64_t key,
                                   uint64_t *val);

/* 1 if KEY was present and is removed, else 0. */
BENCH_TX_SAFE int hashtable_remove(hashtable_t *h, uint64_t key);

/* Outside transactions: checks that every node is in its key's bucket and
 * no key appears twice in a chain, calling VISIT (if not NULL) on every
 * entry. Returns the number of entries, or -1 after printing the first
 * violation (prefixed with WHO) on stderr. */
long hashtable_check(const hashtable_t *h, const char *who,
                     void (*visit)(uint64_t key, uint64_t val, void *arg),
                     void *arg);

#endif /* PTM_TBENCH_HASHTABLE_H */
