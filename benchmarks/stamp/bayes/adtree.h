/*
 * adtree.h - an all-dimensions tree (ADtree, Moore and Lee 1998) over
 * bayes's binary records, as STAMP's adtree.c: counts of conjunctive
 * queries without scanning the records. A node holds the number of records
 * matching its query and, for every later variable, a vary node with the
 * children for that variable's values, except its most common value
 * (counted by subtraction). Nodes with few records keep their record list
 * instead. Built once, read-only afterwards (ordinary heap).
 */
#ifndef BAYES_ADTREE_H
#define BAYES_ADTREE_H

#include "data.h"

typedef struct adtree_node adtree_node_t;

typedef struct adtree {
  const data_t *data;
  adtree_node_t *root;
  long num_nodes;
} adtree_t;

/* NULL if out of memory. */
adtree_t *adtree_build(const data_t *d);
void adtree_free(adtree_t *t);

/* The contingency table of the M variables VARS (strictly ascending):
 * table[i] = number of records in which variable VARS[j] has the value of
 * bit j of i, for i < 2^M. Returns 0 if out of memory. */
int adtree_table(const adtree_t *t, const long *vars, long m, long *table);

#endif /* BAYES_ADTREE_H */
