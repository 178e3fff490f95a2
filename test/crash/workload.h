/*
 * workload.h - a crash-test workload: persistent data, transactions whose
 * effects are a pure function of (seed, op index), and a checker.
 *
 * Every workload's root object starts with `uint64_t done`, the number of
 * operations committed, read and incremented inside each operation's
 * transaction: the value an operation reads is its position in the commit
 * order (every transaction writes `done`, so two of them never commit with
 * the same value). After recovery the data must be exactly the state after
 * the operations ORDER[0..done-1] applied in that order (nothing
 * half-applied, nothing invented); the driver builds ORDER from the
 * positions the threads recorded and checks that every acknowledged
 * operation is in it (docs/crash_simulator.md).
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
  /* Operation I: one transaction whose parameters are a pure function of
   * (SEED, I) and that also increments root->done; returns the value of
   * root->done it read (its position in the commit order). */
  uint64_t (*op)(void *root, uint64_t i, uint64_t seed);
  /* 0 if ROOT holds exactly the state after the operations ORDER[0],
   * ..., ORDER[DONE-1] (operation numbers) in that order; otherwise 1 with
   * a description in WHY. A serial run has ORDER[k] == k. */
  int (*check)(const void *root, const uint64_t *order, uint64_t done,
               uint64_t seed, char *why, size_t why_size);
  /* Heap blocks a sound pool holds (root object included): the blocks the
   * recovered data reaches, for the leak check against the heap's own
   * count; -1: not checked. Called after check passed. */
  long (*expected_blocks)(const void *root);
  /* Also run `ptm-pool check` on every recovered image (when the driver
   * has the tool). */
  int tool_check;
  /* Optional: told the run's operation and thread counts before the
   * operations start (in the process that runs them). */
  void (*set_run)(uint64_t ops, unsigned threads);
};

extern const struct workload bank_workload, list_workload, btree_workload,
    alloc_workload, big_workload, reuse_workload, reuse_held_workload;

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
