/* bayes's learned network: see net.h. */
#include "net.h"

#include <stdio.h>
#include <stdlib.h>

#include "tm.h"

net_t *net_alloc(long num_var) {
  net_t *n = TM_MALLOC(sizeof *n);
  if (!n)
    return NULL;
  n->num_var = num_var;
  n->vars = TM_MALLOC((size_t)num_var * sizeof *n->vars);
  if (!n->vars) {
    TM_FREE(n);
    return NULL;
  }
  for (long v = 0; v < num_var; v++) {
    net_var_t *x = &n->vars[v];
    x->num_parents = x->num_children = x->learned = 0;
    x->score = 0;
    x->parents = TM_MALLOC((size_t)num_var * sizeof(long));
    x->children = TM_MALLOC((size_t)num_var * sizeof(long));
    if (!x->parents || !x->children) {
      n->num_var = v + 1;
      net_free(n);
      return NULL;
    }
  }
  return n;
}

void net_free(net_t *n) {
  if (!n)
    return;
  for (long v = 0; v < n->num_var; v++) {
    if (n->vars[v].parents)
      TM_FREE(n->vars[v].parents);
    if (n->vars[v].children)
      TM_FREE(n->vars[v].children);
  }
  TM_FREE(n->vars);
  TM_FREE(n);
}

int net_has_edge(const net_t *n, long from, long to) {
  const net_var_t *x = &n->vars[to];
  for (long k = 0; k < x->num_parents; k++)
    if (x->parents[k] == from)
      return 1;
  return 0;
}

void net_insert_edge(net_t *n, long from, long to) {
  net_var_t *x = &n->vars[to];
  long k = x->num_parents;
  while (k > 0 && x->parents[k - 1] > from) {
    x->parents[k] = x->parents[k - 1];
    k--;
  }
  x->parents[k] = from;
  x->num_parents++;
  net_var_t *y = &n->vars[from];
  y->children[y->num_children++] = to;
}

void net_remove_edge(net_t *n, long from, long to) {
  net_var_t *x = &n->vars[to];
  long k = 0;
  while (k < x->num_parents && x->parents[k] != from)
    k++;
  for (; k + 1 < x->num_parents; k++)
    x->parents[k] = x->parents[k + 1];
  x->num_parents--;
  net_var_t *y = &n->vars[from];
  for (k = 0; k < y->num_children; k++)
    if (y->children[k] == to) {
      y->children[k] = y->children[y->num_children - 1];
      y->num_children--;
      break;
    }
}

int net_is_path(const net_t *n, long from, long to, long skip_from,
                long skip_to, char *visited, long *queue) {
  for (long v = 0; v < n->num_var; v++)
    visited[v] = 0;
  long head = 0, tail = 0;
  queue[tail++] = from;
  visited[from] = 1;
  while (head < tail) {
    long u = queue[head++];
    if (u == to)
      return 1;
    const net_var_t *x = &n->vars[u];
    for (long k = 0; k < x->num_children; k++) {
      long c = x->children[k];
      if (u == skip_from && c == skip_to)
        continue;
      if (!visited[c]) {
        visited[c] = 1;
        queue[tail++] = c;
      }
    }
  }
  return 0;
}

static int check_error(const char *what, long v) {
  fprintf(stderr, "bayes: check failed: variable %ld: %s\n", v, what);
  return 0;
}

int net_check(const net_t *n, long max_parents) {
  long nv = n->num_var;
  long *indegree = calloc((size_t)nv, sizeof(long));
  long *queue = malloc((size_t)nv * sizeof(long));
  int ok = indegree && queue;
  if (!ok)
    fprintf(stderr, "bayes: out of memory for the check\n");
  for (long v = 0; v < nv && ok; v++) {
    const net_var_t *x = &n->vars[v];
    if (x->num_parents < 0 || x->num_parents > max_parents)
      ok = check_error("too many parents", v);
    for (long k = 0; k < x->num_parents && ok; k++) {
      long p = x->parents[k];
      if (p < 0 || p >= nv || p == v)
        ok = check_error("bad parent", v);
      else if (k > 0 && x->parents[k - 1] >= p)
        ok = check_error("parents not ascending (or repeated)", v);
      else {
        long found = 0;
        for (long j = 0; j < n->vars[p].num_children; j++)
          found += n->vars[p].children[j] == v;
        if (found != 1)
          ok = check_error("not exactly once among its parent's children", v);
      }
    }
    indegree[v] = x->num_parents;
  }
  long edges = 0;
  for (long v = 0; v < nv && ok; v++)
    edges += n->vars[v].num_children;
  for (long v = 0; v < nv && ok; v++)
    edges -= n->vars[v].num_parents;
  if (ok && edges != 0) {
    fprintf(stderr, "bayes: check failed: child and parent lists differ in "
                    "length\n");
    ok = 0;
  }
  /* Kahn's topological sort visits every variable iff there is no cycle. */
  long head = 0, tail = 0;
  for (long v = 0; v < nv && ok; v++)
    if (indegree[v] == 0)
      queue[tail++] = v;
  while (ok && head < tail) {
    const net_var_t *x = &n->vars[queue[head++]];
    for (long k = 0; k < x->num_children; k++)
      if (--indegree[x->children[k]] == 0)
        queue[tail++] = x->children[k];
  }
  if (ok && tail != nv) {
    fprintf(stderr, "bayes: check failed: the learned network has a cycle\n");
    ok = 0;
  }
  free(indegree);
  free(queue);
  return ok;
}
