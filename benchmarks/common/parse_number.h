/*
 * parse_number.h - the check of a numeric command-line value, shared by the
 * benchmarks' options (bench.c) and the STAMP applications'
 * (stamp/lib/options.c): the whole text one number, within a range, and
 * the message when it is not.
 */
#ifndef PTM_BENCH_PARSE_NUMBER_H
#define PTM_BENCH_PARSE_NUMBER_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* 1 and *V if TEXT is one base-10 integer in [MIN, MAX], else 0. */
static inline int parse_long_in(const char *text, long min, long max, long *v) {
  char *end;
  errno = 0;
  long x = strtol(text, &end, 10);
  if (errno || end == text || *end || x < min || x > max)
    return 0;
  *v = x;
  return 1;
}

/* 1 and *V if TEXT is one number in [MIN, MAX] (not NaN), else 0. */
static inline int parse_double_in(const char *text, double min, double max,
                                  double *v) {
  char *end;
  errno = 0;
  double x = strtod(text, &end);
  if (errno || end == text || *end || !(x >= min) || x > max)
    return 0;
  *v = x;
  return 1;
}

/* The same for option OPT of PROGRAM, with the message "PROGRAM: bad value
 * 'TEXT' for OPT (integer in [MIN, MAX])" (or "number in") on stderr when
 * TEXT is not one. */
static inline int parse_long_opt(const char *program, const char *opt,
                                 const char *text, long min, long max,
                                 long *v) {
  if (parse_long_in(text, min, max, v))
    return 1;
  fprintf(stderr, "%s: bad value '%s' for %s (integer in [%ld, %ld])\n",
          program, text, opt, min, max);
  return 0;
}

static inline int parse_double_opt(const char *program, const char *opt,
                                   const char *text, double min, double max,
                                   double *v) {
  if (parse_double_in(text, min, max, v))
    return 1;
  fprintf(stderr, "%s: bad value '%s' for %s (number in [%g, %g])\n", program,
          text, opt, min, max);
  return 0;
}

#endif /* PTM_BENCH_PARSE_NUMBER_H */
