/*
 * workload.h - a crash-test workload: persistent data, transactions whose
 * effects are a pure function of (seed, op index), and a checker.
 *
 * Every workload's root object starts with `uint64_t done`, the number of
 * operations committed, incremented inside each operation's transaction: after
 * recovery the data must be exactly the state after the first `done`
 * operations (nothing half-applied, nothing lost beyond the acknowledged
 * ones, which the driver checks against `done`).
 */
#ifndef PTM_TEST_CRASH_WORKLOAD_H
#define PTM_TEST_CRASH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <ptm.h>

struct workload {
  const char *name;
  size_t root_size;
  /* Fills a fresh root (transactions of its own). */
  void (*init)(void *root, uint64_t seed);
  /* Operation I: one transaction that also increments root->done. */
  void (*op)(void *root, uint64_t i, uint64_t seed);
  /* 0 if ROOT holds exactly the state after DONE operations; otherwise 1
   * with a description in WHY. */
  int (*check)(const void *root, uint64_t done, uint64_t seed, char *why,
               size_t why_size);
  /* Heap blocks a sound pool holds (root object included), for the leak
   * check (the heap's own count); -1: not checked. Called after check. */
  long (*expected_blocks)(const void *root, uint64_t done, uint64_t seed);
  /* Also run `ptm-pool check` on every recovered image (when the driver
   * has the tool). */
  int tool_check;
};

extern const struct workload bank_workload, list_workload, btree_workload,
    alloc_workload;

/* Called (uninstrumented) when the pool's heap is exhausted. */
PTM_PURE void workload_out_of_memory(const char *what);

/* Deterministic pseudo-random value K of operation I. */
static inline uint64_t op_rand(uint64_t seed, uint64_t i, uint64_t k) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + i * 0xd1b54a32d192ed03ull +
               k * 0x8cb92ba72f3d8dd7ull + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

#endif
