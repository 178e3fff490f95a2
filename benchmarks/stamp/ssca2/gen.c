/* ssca2's input generator: see gen.h. */
#include "gen.h"

#include <stdlib.h>

#include "random.h"
#include "tm.h"

typedef struct edge_buf {
  long n, cap;
  long *start, *end, *weight;
} edge_buf_t;

static int push(edge_buf_t *b, long u, long v, long w) {
  if (b->n == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 1024;
    b->start = realloc(b->start, (size_t)b->cap * sizeof(long));
    b->end = realloc(b->end, (size_t)b->cap * sizeof(long));
    b->weight = realloc(b->weight, (size_t)b->cap * sizeof(long));
    if (!b->start || !b->end || !b->weight)
      return 0;
  }
  b->start[b->n] = u;
  b->end[b->n] = v;
  b->weight[b->n] = w;
  b->n++;
  return 1;
}

static double uniform(random_t *r) {
  return (double)random_generate(r) / 4294967296.0;
}

edges_t *gen_edges(const gen_params_t *p) {
  long n = 1L << p->scale;
  long maxClique = 1L << (p->scale / 3);
  random_t *r = random_alloc();
  long *perm = malloc((size_t)n * sizeof(long));
  long *cliqueOf = malloc((size_t)n * sizeof(long));
  edge_buf_t b = {0, 0, NULL, NULL, NULL};
  if (!r || !perm || !cliqueOf)
    return NULL;
  random_seed(r, p->seed);
  random_permutation(r, perm, n, 0);
  long stringId = 0;
#define WEIGHT()                                                               \
  ((long)(random_generate(r) % 100) < p->percIntWeights                        \
       ? (long)(random_generate(r) % (unsigned long)n) + 1                     \
       : -(++stringId))
  /* Cliques over consecutive positions of the permutation. */
  long clique = 0;
  for (long lo = 0; lo < n; clique++) {
    long size = (long)(random_generate(r) % (unsigned long)maxClique) + 1;
    long hi = lo + size < n ? lo + size : n;
    for (long i = lo; i < hi; i++)
      cliqueOf[i] = clique;
    for (long i = lo; i < hi; i++)
      for (long j = i + 1; j < hi; j++) {
        int forward = 1, backward = 1;
        if (uniform(r) < p->probUnidirectional) {
          if (random_generate(r) & 1)
            backward = 0;
          else
            forward = 0;
        }
        long paral =
            (long)(random_generate(r) % (unsigned long)p->maxParalEdges) + 1;
        for (long k = 0; k < paral; k++) {
          if (forward && !push(&b, perm[i], perm[j], WEIGHT()))
            return NULL;
          if (backward && !push(&b, perm[j], perm[i], WEIGHT()))
            return NULL;
        }
      }
    lo = hi;
  }
  /* Inter-clique edges. */
  for (long i = 0; i < n; i++) {
    double prob = p->probIntercl;
    for (long d = 1; d < n; d *= 2, prob /= 2) {
      long j = (i + d) % n;
      if (cliqueOf[j] != cliqueOf[i] && uniform(r) < prob &&
          !push(&b, perm[i], perm[j], WEIGHT()))
        return NULL;
    }
  }
#undef WEIGHT
  edges_t *e = TM_MALLOC(sizeof *e);
  if (!e)
    return NULL;
  e->numVertices = n;
  e->numEdges = b.n;
  e->start = TM_MALLOC((size_t)b.n * sizeof(long));
  e->end = TM_MALLOC((size_t)b.n * sizeof(long));
  e->weight = TM_MALLOC((size_t)b.n * sizeof(long));
  if (!e->start || !e->end || !e->weight)
    return NULL;
  /* Shuffle the edge order so that threads' shares mix cliques. */
  for (long i = b.n - 1; i > 0; i--) {
    long j = random_below(r, i + 1), t;
    t = b.start[i], b.start[i] = b.start[j], b.start[j] = t;
    t = b.end[i], b.end[i] = b.end[j], b.end[j] = t;
    t = b.weight[i], b.weight[i] = b.weight[j], b.weight[j] = t;
  }
  for (long i = 0; i < b.n; i++) {
    e->start[i] = b.start[i];
    e->end[i] = b.end[i];
    e->weight[i] = b.weight[i];
  }
  free(b.start);
  free(b.end);
  free(b.weight);
  free(perm);
  free(cliqueOf);
  random_free(r);
  return e;
}
