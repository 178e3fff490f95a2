/*
 * bench_verdict.h - the last words of every benchmark program (bench.c's
 * bench_finish and the STAMP applications' stamp_result_print), after its
 * RESULT line: "NAME: OK" on stdout, or "NAME: FAILED validation" on
 * stderr, and the exit status (0 if OK, 1 otherwise).
 */
#ifndef PTM_BENCH_VERDICT_H
#define PTM_BENCH_VERDICT_H

#include <stdio.h>

static inline int bench_verdict(const char *name, int ok) {
  if (ok)
    printf("%s: OK\n", name);
  else
    fprintf(stderr, "%s: FAILED validation\n", name);
  fflush(stdout);
  return ok ? 0 : 1;
}

#endif /* PTM_BENCH_VERDICT_H */
