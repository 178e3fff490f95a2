/* The local score: see score.h. */
#include "score.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tm.h"

#define SCORE_MAX_FAMILY 24

static void out_of_memory(void) {
  fprintf(stderr, "bayes: out of memory while scoring\n");
  exit(1);
}

/* Sorts the family {V} u P into VARS; returns V's position. */
static long family(long v, const long *p, long np, long *vars) {
  long m = 0;
  vars[m++] = v;
  for (long k = 0; k < np; k++)
    vars[m++] = p[k];
  for (long i = 1; i < m; i++)
    for (long j = i; j > 0 && vars[j - 1] > vars[j]; j--) {
      long t = vars[j];
      vars[j] = vars[j - 1];
      vars[j - 1] = t;
    }
  for (long i = 0; i < m; i++)
    if (vars[i] == v)
      return i;
  return -1;
}

/* Log-likelihood from the family's table (bit POS is V's value). */
static double from_table(const scorer_t *s, const long *table, long m,
                         long pos) {
  double ll = 0;
  long bit = 1L << pos;
  for (long i = 0; i < 1L << m; i++) {
    if (i & bit)
      continue;
    double n0 = (double)table[i], n1 = (double)table[i | bit];
    double n = n0 + n1;
    if (n0 > 0)
      ll += n0 * log(n0 / n);
    if (n1 > 0)
      ll += n1 * log(n1 / n);
  }
  return ll - s->penalty_per_param * (double)(1L << (m - 1));
}

PTM_PURE double score_local(const scorer_t *s, long v, const long *p, long np) {
  long vars[SCORE_MAX_FAMILY];
  long m = np + 1;
  if (m > SCORE_MAX_FAMILY) {
    fprintf(stderr, "bayes: family of %ld variables too large\n", m);
    exit(1);
  }
  long pos = family(v, p, np, vars);
  long *table = malloc(sizeof(long) << m);
  if (!table || !adtree_table(s->adtree, vars, m, table))
    out_of_memory();
  double score = from_table(s, table, m, pos);
  free(table);
  return score;
}

double score_local_scan(const scorer_t *s, long v, const long *p, long np) {
  long vars[SCORE_MAX_FAMILY];
  long m = np + 1;
  long pos = family(v, p, np, vars);
  long *table = calloc((size_t)1 << m, sizeof(long));
  if (!table)
    out_of_memory();
  const data_t *d = s->adtree->data;
  for (long r = 0; r < d->num_record; r++) {
    long idx = 0;
    for (long j = 0; j < m; j++)
      idx |= (long)data_value(d, r, vars[j]) << j;
    table[idx]++;
  }
  double score = from_table(s, table, m, pos);
  free(table);
  return score;
}

__attribute__((noinline)) PTM_PURE void score_scratch_set(long *buf, long i,
                                                          long value) {
  buf[i] = value;
}
