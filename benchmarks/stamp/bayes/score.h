/*
 * score.h - the local score of a variable given a parent set: the
 * log-likelihood of the records under the maximum-likelihood parameters,
 * minus a penalty of PENALTY * ln(records) / 2 per free parameter (2^|P|
 * for a binary variable; PENALTY is bayes's -i insert penalty). The score
 * of a network is the sum over its variables.
 */
#ifndef BAYES_SCORE_H
#define BAYES_SCORE_H

#include "adtree.h"
#include "tm.h"

typedef struct scorer {
  const adtree_t *adtree;
  double penalty_per_param;
  long max_family; /* largest parent set + 1 */
} scorer_t;

/* Score of V with the NP parents P (any order, V not among them), counts
 * from the ADtree. Runs uninstrumented inside transactions: it reads only
 * the read-only ADtree and P, which must be private memory written outside
 * any transaction or through score_scratch_set. Exits on out of memory. */
PTM_PURE double score_local(const scorer_t *s, long v, const long *p, long np);

/* The same from a scan of the records (for the final check). */
double score_local_scan(const scorer_t *s, long v, const long *p, long np);

/* BUF[I] = VALUE, uninstrumented: fills score_local's private input from
 * inside a transaction so that it sees the values. */
PTM_PURE void score_scratch_set(long *buf, long i, long value);

#endif /* BAYES_SCORE_H */
