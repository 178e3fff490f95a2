/*
 * set_worker.h - the operation mix of the set benchmarks (hashset, list,
 * rbtree), written once. Each operation picks a key in [0, key range) and,
 * with probability update%, inserts or removes it (half each), otherwise
 * looks it up; every operation is one transaction. Per thread: count[0]
 * successful inserts, count[1] successful removes, count[2] lookup hits.
 *
 * A macro rather than a function taking the operations as pointers: the
 * plugin instruments before inlining, and a call through a pointer inside a
 * transaction would be translated at run time on every operation.
 */
#ifndef PTM_BENCH_SET_WORKER_H
#define PTM_BENCH_SET_WORKER_H

#include "bench.h"

#define SET_BENCH_WORKER(NAME, INSERT, REMOVE, CONTAINS)                       \
  static void NAME(bench_thread_t *t) {                                        \
    while (bench_continue(t)) {                                                \
      long key = bench_rand_below(t, bench.key_range);                         \
      long op = bench_rand_below(t, 200);                                      \
      int done = 0;                                                            \
      if (op < 2 * bench.update) {                                             \
        if (op & 1) {                                                          \
          PTM_BEGIN();                                                         \
          done = INSERT(key);                                                  \
          PTM_END();                                                           \
          t->count[0] += done;                                                 \
        } else {                                                               \
          PTM_BEGIN();                                                         \
          done = REMOVE(key);                                                  \
          PTM_END();                                                           \
          t->count[1] += done;                                                 \
        }                                                                      \
      } else {                                                                 \
        PTM_BEGIN();                                                           \
        done = CONTAINS(key);                                                  \
        PTM_END();                                                             \
        t->count[2] += done;                                                   \
      }                                                                        \
      t->ops++;                                                                \
    }                                                                          \
  }

#endif
