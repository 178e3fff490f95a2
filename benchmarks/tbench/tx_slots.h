/*
 * tx_slots.h - per-thread tallies kept in the benchmark's persistent data
 * and updated inside the same transactions as the data they describe, so
 * validation compares the structure with counts that committed atomically
 * with it. One cache line per thread: no false conflicts between threads.
 */
#ifndef PTM_TBENCH_TX_SLOTS_H
#define PTM_TBENCH_TX_SLOTS_H

#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TX_SLOT_WORDS 8

typedef struct tx_slot {
  uint64_t v[TX_SLOT_WORDS];
} tx_slot_t;

#if !defined(PTM_PMDK)
/* Slot array for bench.threads workers plus the setup thread (index
 * bench.threads), allocated in a transaction; exits on failure. (The PMDK
 * peers allocate theirs with libpmemobj.) */
static inline tx_slot_t *tx_slots_new(const char *who) {
  tx_slot_t *s = NULL;
  size_t n = (size_t)bench.threads + 1;
  PTM_BEGIN();
  s = ptm_aligned_alloc(64, n * sizeof(tx_slot_t));
  if (s)
    for (size_t i = 0; i < n; i++)
      for (int w = 0; w < TX_SLOT_WORDS; w++)
        s[i].v[w] = 0;
  PTM_END();
  if (!s) {
    fprintf(stderr, "%s: out of memory for %zu counters\n", who, n);
    exit(1);
  }
  return s;
}
#endif

/* The slot of worker T (the setup thread's id is -1). */
static inline long tx_slot_index(const bench_thread_t *t) {
  return t->id < 0 ? bench.threads : t->id;
}

/* Sum of word W over every slot. */
static inline uint64_t tx_slots_sum(const tx_slot_t *s, int w) {
  uint64_t sum = 0;
  for (long i = 0; i <= bench.threads; i++)
    sum += s[i].v[w];
  return sum;
}

/* An allocation failed inside a transaction: the pool is full. */
static inline void tx_out_of_memory(const char *who) {
  fprintf(stderr,
          "%s: out of memory inside a transaction (persistent pool full: "
          "raise PTM_POOL_SIZE or shorten the run)\n",
          who);
  exit(1);
}

#endif /* PTM_TBENCH_TX_SLOTS_H */
