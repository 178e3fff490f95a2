/* The ADtree: see adtree.h. */
#include "adtree.h"

#include <stdlib.h>
#include <string.h>

/* Nodes with at most this many records keep the list instead of children.
 */
#define ADTREE_LEAF_MAX 16

typedef struct adtree_vary {
  int mcv;                 /* most common value: no child for it */
  adtree_node_t *child[2]; /* records with this variable = value */
} adtree_vary_t;

struct adtree_node {
  long start;          /* first variable this node varies */
  long count;          /* records matching the node's query */
  adtree_vary_t *vary; /* num_var - start entries; NULL for a leaf */
  long *records;       /* a leaf's records */
};

static adtree_node_t *build(adtree_t *t, long *recs, long n, long start,
                            long *scratch) {
  const data_t *d = t->data;
  adtree_node_t *node = calloc(1, sizeof *node);
  if (!node)
    return NULL;
  t->num_nodes++;
  node->start = start;
  node->count = n;
  if (n <= ADTREE_LEAF_MAX || start == d->num_var) {
    node->records = malloc((size_t)(n ? n : 1) * sizeof(long));
    if (!node->records)
      return NULL;
    memcpy(node->records, recs, (size_t)n * sizeof(long));
    return node;
  }
  node->vary = calloc((size_t)(d->num_var - start), sizeof *node->vary);
  if (!node->vary)
    return NULL;
  for (long v = start; v < d->num_var; v++) {
    /* The records with the less common value of v go to the child. */
    long ones = 0;
    for (long i = 0; i < n; i++)
      ones += data_value(d, recs[i], v);
    adtree_vary_t *vary = &node->vary[v - start];
    vary->mcv = ones > n - ones;
    long other = vary->mcv ? n - ones : ones;
    if (other == 0)
      continue;
    long k = 0;
    for (long i = 0; i < n; i++)
      if (data_value(d, recs[i], v) != vary->mcv)
        scratch[k++] = recs[i];
    vary->child[!vary->mcv] = build(t, scratch, k, v + 1, scratch + k);
    if (!vary->child[!vary->mcv])
      return NULL;
  }
  return node;
}

adtree_t *adtree_build(const data_t *d) {
  adtree_t *t = calloc(1, sizeof *t);
  long n = d->num_record;
  /* Each level of the recursion needs at most the records of its node, and
   * a child has at most half of them. */
  long *recs = malloc((size_t)(3 * n + 1) * sizeof(long));
  if (!t || !recs) {
    free(t);
    free(recs);
    return NULL;
  }
  t->data = d;
  for (long i = 0; i < n; i++)
    recs[i] = i;
  t->root = build(t, recs, n, 0, recs + n);
  free(recs);
  if (!t->root) {
    adtree_free(t);
    return NULL;
  }
  return t;
}

static void free_node(adtree_node_t *node, long num_var) {
  if (!node)
    return;
  if (node->vary)
    for (long v = node->start; v < num_var; v++) {
      free_node(node->vary[v - node->start].child[0], num_var);
      free_node(node->vary[v - node->start].child[1], num_var);
    }
  free(node->vary);
  free(node->records);
  free(node);
}

void adtree_free(adtree_t *t) {
  if (!t)
    return;
  free_node(t->root, t->data->num_var);
  free(t);
}

/* Fills OUT (2^(m-i) entries, bit j-i for VARS[j]) for the records of NODE;
 * TMP has room for 2^(m-i) more per remaining level. */
static void table(const adtree_t *t, const adtree_node_t *node,
                  const long *vars, long i, long m, long *out, long *tmp) {
  long size = 1L << (m - i);
  if (!node) {
    memset(out, 0, (size_t)size * sizeof *out);
    return;
  }
  if (i == m) {
    out[0] = node->count;
    return;
  }
  if (!node->vary) {
    memset(out, 0, (size_t)size * sizeof *out);
    for (long k = 0; k < node->count; k++) {
      long idx = 0;
      for (long j = i; j < m; j++)
        idx |= (long)data_value(t->data, node->records[k], vars[j]) << (j - i);
      out[idx]++;
    }
    return;
  }
  const adtree_vary_t *vary = &node->vary[vars[i] - node->start];
  long half = size / 2;
  long *all = tmp, *other = tmp + half;
  /* Counts over the remaining variables, without and with vars[i] set to
   * its less common value; the most common value's are the difference. */
  table(t, node, vars, i + 1, m, all, tmp + size);
  table(t, vary->child[!vary->mcv], vars, i + 1, m, other, tmp + size);
  for (long r = 0; r < half; r++) {
    out[(r << 1) | !vary->mcv] = other[r];
    out[(r << 1) | vary->mcv] = all[r] - other[r];
  }
}

int adtree_table(const adtree_t *t, const long *vars, long m, long *out) {
  /* Scratch: 2^(m-i) entries per level i, less than 2^(m+1) in all. */
  long *tmp = malloc(sizeof(long) << (m + 1));
  if (!tmp)
    return 0;
  table(t, t->root, vars, 0, m, out, tmp);
  free(tmp);
  return 1;
}
