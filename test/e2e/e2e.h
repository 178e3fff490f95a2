/*
 * e2e.h - helpers shared by the end-to-end programs (test/e2e).
 *
 * Each program checks its own results with CHECK and CHECK_EQ (e2e_check.h);
 * e2e_finish() returns the exit status. When built against the
 * test runtime (PTM_E2E_TESTRT defined by test/e2e/CMakeLists.txt) the
 * counters of ptm_testrt.h are available through the E2E_* helpers.
 */
#ifndef PTM_E2E_H
#define PTM_E2E_H

#include <inttypes.h>
#include <ptm.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PTM_E2E_TESTRT
#include <ptm_testrt.h>
#endif

#include "e2e_check.h"

static inline int e2e_finish(const char *name) {
  ptm_stats_t s;
  ptm_stats(&s);
  if (e2e_failures) {
    fprintf(stderr, "%s: FAILED (%d checks) [lib %s]\n", name, e2e_failures,
            ptm_algorithm());
    return 1;
  }
  printf("%s: OK [lib %s, commits %" PRIu64 ", aborts %" PRIu64 "]\n", name,
         ptm_algorithm(), s.commits, s.aborts);
  return 0;
}

/* The abort sweep in effect (0 without the test runtime). */
static inline unsigned e2e_sweep(void) {
#ifdef PTM_E2E_TESTRT
  return ptm_test_abort_sweep();
#else
  return 0;
#endif
}

#ifdef PTM_E2E_TESTRT
/* Checks that a phase of NTX single-threaded transactions committed exactly
 * NTX times, that every abort was injected (or a restart), and that injection
 * really happened when a sweep is set. Resets the counters for the next
 * phase. */
#define E2E_CHECK_PHASE(phase, ntx)                                            \
  do {                                                                         \
    const struct ptm_test_counts *c_ = ptm_test_counts();                      \
    CHECK_EQ(c_->commits, (ntx));                                              \
    CHECK(c_->begins == c_->commits + c_->aborts,                              \
          "%s: begins %" PRIu64 " commits %" PRIu64 " aborts %" PRIu64, phase, \
          c_->begins, c_->commits, c_->aborts);                                \
    if (e2e_sweep() > 0)                                                       \
      CHECK(c_->injected_aborts > 0, "%s: sweep %u injected no abort", phase,  \
            e2e_sweep());                                                      \
    else                                                                       \
      CHECK(c_->injected_aborts == 0,                                          \
            "%s: %" PRIu64 " injected aborts "                                 \
            "without a sweep",                                                 \
            phase, c_->injected_aborts);                                       \
    if (ptm_test_commit_retry() > 0 && e2e_sweep() == 0)                       \
      CHECK(c_->injected_retries > 0, "%s: no commit-time retry injected",     \
            phase);                                                            \
    CHECK(c_->clone_misses == 0, "%s: %" PRIu64 " clone misses", phase,        \
          c_->clone_misses);                                                   \
    CHECK(c_->irrevocable == 0, "%s: %" PRIu64 " irrevocable transactions",    \
          phase, c_->irrevocable);                                             \
    ptm_test_reset();                                                          \
  } while (0)
#define E2E_RESET() ptm_test_reset()
#else
#define E2E_CHECK_PHASE(phase, ntx)                                            \
  do {                                                                         \
    (void)(phase);                                                             \
    (void)(ntx);                                                               \
  } while (0)
#define E2E_RESET() ((void)0)
#endif

/* An opaque value the optimizer cannot see through, so that locals are not
 * constant-folded across a transaction. */
static inline long e2e_opaque(long v) {
  __asm__ volatile("" : "+r"(v));
  return v;
}

#endif /* PTM_E2E_H */
