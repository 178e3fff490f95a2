//===- testrt_policy.h - cgl plus counters and abort injection --*- C++ -*-===//
//
// The algorithm is CglPolicy's; the test runtime adds:
//  - on_event: a process-wide counter per ABI call kind (ptm_testrt.h);
//  - inject_abort: the abort sweep (attempt a aborts at its (a*N)-th
//    barrier);
//  - commit: commit-time retries (the first K attempts of every transaction
//    fail at commit and take the plugin's retry edge instead of longjmp);
//  - generic (non-in-place) reads for libc and memory intrinsics, so the
//    paths that the word-based algorithms will use are exercised end to end;
//  - reads and writes always counted in ptm_stats.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_TESTRT_POLICY_H
#define PTM_TEST_TESTRT_POLICY_H

#include "libs/cgl_policy.h"

namespace ptm {

struct TestrtPolicy : CglPolicy {
  static constexpr bool kReadsInPlace = false;
  static constexpr bool kCountAccesses = true;

  // Barriers of the current attempt of this thread.
  static inline thread_local uint64_t attempt_barriers;

  static void begin(TxThread &tx) {
    attempt_barriers = 0;
    CglPolicy::begin(tx);
  }
  static void begin_irrevocable(TxThread &tx) { begin(tx); }

  static void on_event(TxThread &tx, Event event, uintptr_t arg);

  static bool inject_abort(TxThread &tx) {
    unsigned sweep = __atomic_load_n(&abort_sweep, __ATOMIC_RELAXED);
    if (!sweep || tx.irrevocable || !tx.has_checkpoint || tx.depth == 0)
      return false;
    return ++attempt_barriers == uint64_t(tx.attempt) * sweep;
  }

  static bool commit(TxThread &tx) {
    unsigned retries = __atomic_load_n(&commit_retries, __ATOMIC_RELAXED);
    if (retries && !tx.irrevocable && tx.attempt <= retries) {
      on_event(tx, Event::InjectedRetry, 0);
      return false; // the glue rolls the attempt back and returns 1
    }
    return CglPolicy::commit(tx);
  }

  static inline unsigned abort_sweep;
  static inline unsigned commit_retries;
};

} // namespace ptm

#endif // PTM_TEST_TESTRT_POLICY_H
