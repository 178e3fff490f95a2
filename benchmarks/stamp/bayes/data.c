/* bayes's input network and records: see data.h. */
#include "data.h"

#include <stdlib.h>

#include "random.h"

static double uniform(random_t *r) {
  return (double)random_generate(r) / 4294967296.0;
}

static int sort_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

data_t *data_generate(long num_var, long num_record, long max_parents,
                      long percent, unsigned long seed) {
  data_t *d = calloc(1, sizeof *d);
  random_t *r = random_alloc();
  long *order = malloc((size_t)num_var * sizeof *order);
  double **cpt = calloc((size_t)num_var, sizeof *cpt);
  int ok = d && r && order && cpt;
  if (ok) {
    d->num_var = num_var;
    d->num_record = num_record;
    d->max_parents = max_parents;
    d->records = malloc((size_t)num_var * (size_t)num_record);
    d->num_parents = calloc((size_t)num_var, sizeof(long));
    d->parents =
        malloc((size_t)num_var * (size_t)(max_parents + 1) * sizeof(long));
    ok = d->records && d->num_parents && d->parents;
  }
  if (ok) {
    random_seed(r, seed);
    /* A random topological order. */
    random_permutation(r, order, num_var, 0);
    for (long i = 0; i < num_var && ok; i++) {
      long v = order[i];
      long *p = &d->parents[v * (max_parents + 1)];
      long n = 0;
      for (long j = 0; j < i && n < max_parents; j++)
        if ((long)(random_generate(r) % 100) < percent)
          p[n++] = order[j];
      qsort(p, (size_t)n, sizeof *p, sort_long);
      d->num_parents[v] = n;
      cpt[v] = malloc(sizeof(double) << n);
      if (!cpt[v]) {
        ok = 0;
        break;
      }
      for (long c = 0; c < 1L << n; c++)
        cpt[v][c] = uniform(r);
    }
  }
  /* Ancestral sampling in the topological order. */
  for (long rec = 0; ok && rec < num_record; rec++) {
    unsigned char *row = &d->records[rec * num_var];
    for (long i = 0; i < num_var; i++) {
      long v = order[i];
      const long *p = &d->parents[v * (max_parents + 1)];
      long c = 0;
      for (long k = 0; k < d->num_parents[v]; k++)
        c |= (long)row[p[k]] << k;
      row[v] = uniform(r) < cpt[v][c];
    }
  }
  if (cpt)
    for (long v = 0; v < num_var; v++)
      free(cpt[v]);
  free(cpt);
  free(order);
  if (r)
    random_free(r);
  if (!ok) {
    data_free(d);
    return NULL;
  }
  return d;
}

void data_free(data_t *d) {
  if (!d)
    return;
  free(d->records);
  free(d->num_parents);
  free(d->parents);
  free(d);
}
