//===- check.h - minimal assertions and transactions for unit tests -*- C++
//-*-//
//
// CHECK(cond) and CHECK_EQ(a, b) report the failing line and count failures;
// main returns check_result(). run_tx(body) runs body as a transaction the
// way instrumented code does (checkpoint, __ptm_setjmp, begin, body, commit
// with the retry edge), calling the ABI directly: the tests are built without
// the plugin.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_UNIT_CHECK_H
#define PTM_TEST_UNIT_CHECK_H

#include "ptm.h"

#include <csetjmp>
#include <cstdio>

inline int check_failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_EQ(a, b)                                                         \
  do {                                                                         \
    auto check_a_ = (a);                                                       \
    auto check_b_ = (b);                                                       \
    if (!(check_a_ == check_b_)) {                                             \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n",     \
              __FILE__, __LINE__, #a, #b, (long long)check_a_,                 \
              (long long)check_b_);                                            \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

inline int check_result(const char *name) {
  if (check_failures)
    fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
  else
    fprintf(stderr, "%s: all checks passed\n", name);
  return check_failures ? 1 : 0;
}

template <class F> __attribute__((noinline)) void run_tx(F &&body) {
  do {
    void *buf = __ptm_tx_checkpoint();
    __ptm_setjmp(buf);
    __ptm_tx_begin("unit-test");
    body();
  } while (__ptm_tx_commit() != 0);
}

#endif // PTM_TEST_UNIT_CHECK_H
