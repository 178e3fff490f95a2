/*
 * e2e_check.h - CHECK and CHECK_EQ for the C test programs compiled with the
 * plugin (test/e2e, test/stm): a failed check prints where and what differed
 * and counts itself in e2e_failures (atomically: checks run in threads); the
 * program decides its exit status from the count.
 */
#ifndef PTM_E2E_CHECK_H
#define PTM_E2E_CHECK_H

#include <stdio.h>

static int e2e_failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      __atomic_add_fetch(&e2e_failures, 1, __ATOMIC_RELAXED);                  \
    }                                                                          \
  } while (0)

#define CHECK_EQ(a, b)                                                         \
  do {                                                                         \
    long long e2e_a_ = (long long)(a), e2e_b_ = (long long)(b);                \
    if (e2e_a_ != e2e_b_) {                                                    \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s: %lld != %lld\n",      \
              __FILE__, __LINE__, #a, #b, e2e_a_, e2e_b_);                     \
      __atomic_add_fetch(&e2e_failures, 1, __ATOMIC_RELAXED);                  \
    }                                                                          \
  } while (0)

#endif /* PTM_E2E_CHECK_H */
