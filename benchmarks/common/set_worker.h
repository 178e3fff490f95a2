/*
 * set_worker.h - what the set benchmarks (hashset, list, rbtree and the
 * hashset PMDK peer) share, written once: the operation mix and the end of
 * the run.
 *
 * SET_BENCH_WORKER(NAME, INSERT, REMOVE, CONTAINS) defines the worker NAME
 * and NAME_insert, NAME_remove, NAME_contains: each runs one operation on a
 * key in one transaction and returns 1 if it succeeded (the insert is the
 * one to pass to bench_fill). Each operation of the worker picks a key in
 * [0, key range) and, with probability update%, inserts or removes it (half
 * each), otherwise looks it up. Per thread: count[0] successful inserts,
 * count[1] successful removes, count[2] lookup hits.
 *
 * Macros rather than functions taking the operations as pointers: the
 * plugin instruments before inlining, and a call through a pointer inside a
 * transaction would be translated at run time on every operation.
 */
#ifndef PTM_BENCH_SET_WORKER_H
#define PTM_BENCH_SET_WORKER_H

#include "bench.h"

#include <stdio.h>

/* NAME(key): OP(key) in one transaction. */
#define SET_BENCH_TX(NAME, OP)                                                 \
  static int NAME(long key) {                                                  \
    int done = 0;                                                              \
    PTM_BEGIN();                                                               \
    done = OP(key);                                                            \
    PTM_END();                                                                 \
    return done;                                                               \
  }

#define SET_BENCH_WORKER(NAME, INSERT, REMOVE, CONTAINS)                       \
  SET_BENCH_TX(NAME##_insert, INSERT)                                          \
  SET_BENCH_TX(NAME##_remove, REMOVE)                                          \
  SET_BENCH_TX(NAME##_contains, CONTAINS)                                      \
  static void NAME(bench_thread_t *t) {                                        \
    while (bench_continue(t)) {                                                \
      long key = bench_rand_below(t, bench.key_range);                         \
      long op = bench_rand_below(t, 200);                                      \
      if (op >= 2 * bench.update)                                              \
        t->count[2] += NAME##_contains(key);                                   \
      else if (op & 1)                                                         \
        t->count[0] += NAME##_insert(key);                                     \
      else                                                                     \
        t->count[1] += NAME##_remove(key);                                     \
      t->ops++;                                                                \
    }                                                                          \
  }

/* The end of a set benchmark: the SIZE keys found in the structure must be
 * INITIAL + successful inserts - successful removes. Prints "NAME: SIZE keys
 * (...)" followed by DETAIL when all is well (OK and the sizes agree), the
 * difference otherwise; returns bench_finish's exit status. */
static inline int set_bench_finish(const char *name, long size, long initial,
                                   int ok, const char *detail) {
  long expected = initial + bench_sum(0) - bench_sum(1);
  if (size != expected) {
    fprintf(stderr, "%s: size %ld, expected %ld\n", name, size, expected);
    ok = 0;
  }
  if (ok)
    printf("%s: %ld keys (%ld initial + %ld inserted - %ld removed)%s\n", name,
           size, initial, bench_sum(0), bench_sum(1), detail);
  return bench_finish(name, ok);
}

#endif
