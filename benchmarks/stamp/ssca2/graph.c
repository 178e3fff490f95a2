/* ssca2's kernel 1: see graph.h. */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>

#include "tm.h"

static long *alloc_longs(long n) {
  long *a = TM_MALLOC((size_t)(n > 0 ? n : 1) * sizeof(long));
  if (a)
    for (long i = 0; i < n; i++)
      a[i] = 0;
  return a;
}

graph_t *graph_alloc(edges_t *edges) {
  graph_t *g = TM_MALLOC(sizeof *g);
  if (!g)
    return NULL;
  long n = edges->numVertices, m = edges->numEdges;
  g->edges = edges;
  g->maxVertex = -1;
  g->numVertices = 0;
  g->outDegree = alloc_longs(n);
  g->inDegree = alloc_longs(n);
  g->outIndex = alloc_longs(n + 1);
  g->inIndex = alloc_longs(n + 1);
  g->outFill = alloc_longs(n);
  g->inFill = alloc_longs(n);
  g->outVertex = alloc_longs(m);
  g->outWeight = alloc_longs(m);
  g->inVertex = alloc_longs(m);
  if (!g->outDegree || !g->inDegree || !g->outIndex || !g->inIndex ||
      !g->outFill || !g->inFill || !g->outVertex || !g->outWeight ||
      !g->inVertex)
    return NULL;
  return g;
}

void graph_compute(void *arg) {
  graph_t *g = arg;
  edges_t *e = g->edges;
  long id = thread_getId(), nt = thread_getNumThread();
  long lo = e->numEdges * id / nt, hi = e->numEdges * (id + 1) / nt;

  long localMax = -1;
  for (long i = lo; i < hi; i++) {
    if (e->start[i] > localMax)
      localMax = e->start[i];
    if (e->end[i] > localMax)
      localMax = e->end[i];
  }
  TM_BEGIN();
  if (localMax > g->maxVertex)
    g->maxVertex = localMax;
  TM_END();

  for (long i = lo; i < hi; i++) {
    long u = e->start[i], v = e->end[i];
    TM_BEGIN();
    g->outDegree[u]++;
    g->inDegree[v]++;
    TM_END();
  }
  thread_barrier_wait();

  if (id == 0) {
    g->numVertices = g->maxVertex + 1;
    for (long v = 0; v < g->numVertices; v++) {
      g->outIndex[v + 1] = g->outIndex[v] + g->outDegree[v];
      g->inIndex[v + 1] = g->inIndex[v] + g->inDegree[v];
    }
  }
  thread_barrier_wait();

  for (long i = lo; i < hi; i++) {
    long u = e->start[i], v = e->end[i], w = e->weight[i];
    TM_BEGIN();
    long out = g->outIndex[u] + g->outFill[u]++;
    g->outVertex[out] = v;
    g->outWeight[out] = w;
    long in = g->inIndex[v] + g->inFill[v]++;
    g->inVertex[in] = u;
    TM_END();
  }
}

static int compare_pair(const void *a, const void *b) {
  const long *x = a, *y = b;
  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Sorts the pairs (a[i], b[i]) of [lo, hi) into PAIRS. */
static void gather(long *pairs, const long *a, const long *b, long lo,
                   long hi) {
  for (long i = lo; i < hi; i++) {
    pairs[2 * (i - lo)] = a[i];
    pairs[2 * (i - lo) + 1] = b ? b[i] : 0;
  }
  qsort(pairs, (size_t)(hi - lo), 2 * sizeof(long), compare_pair);
}

int graph_check(graph_t *g) {
  edges_t *e = g->edges;
  long n = g->numVertices, m = e->numEdges, maxSeen = -1;
  for (long i = 0; i < m; i++)
    maxSeen = e->start[i] > maxSeen ? e->start[i] : maxSeen,
    maxSeen = e->end[i] > maxSeen ? e->end[i] : maxSeen;
  if (g->maxVertex != maxSeen) {
    fprintf(stderr, "ssca2: max vertex %ld, the edges have %ld\n", g->maxVertex,
            maxSeen);
    return 0;
  }
  if (g->outIndex[n] != m || g->inIndex[n] != m) {
    fprintf(stderr, "ssca2: %ld out and %ld in slots for %ld edges\n",
            g->outIndex[n], g->inIndex[n], m);
    return 0;
  }
  /* Reference adjacency from the edge list, sequentially, by counting. */
  long *refIndex = calloc((size_t)n + 1, sizeof(long));
  long *fill = calloc((size_t)n, sizeof(long));
  long *refOut = malloc((size_t)m * 2 * sizeof(long));
  long *refIn = malloc((size_t)m * sizeof(long));
  long *inIndex = calloc((size_t)n + 1, sizeof(long));
  long *a = malloc((size_t)m * 2 * sizeof(long));
  long *b = malloc((size_t)m * 2 * sizeof(long));
  if (!refIndex || !fill || !refOut || !refIn || !inIndex || !a || !b) {
    fprintf(stderr, "ssca2: out of memory checking\n");
    return 0;
  }
  for (long i = 0; i < m; i++) {
    refIndex[e->start[i] + 1]++;
    inIndex[e->end[i] + 1]++;
  }
  for (long v = 0; v < n; v++) {
    refIndex[v + 1] += refIndex[v];
    inIndex[v + 1] += inIndex[v];
  }
  for (long i = 0; i < m; i++) {
    long u = e->start[i], at = refIndex[u] + fill[u]++;
    refOut[2 * at] = e->end[i];
    refOut[2 * at + 1] = e->weight[i];
  }
  for (long v = 0; v < n; v++)
    fill[v] = 0;
  for (long i = 0; i < m; i++) {
    long v = e->end[i];
    refIn[inIndex[v] + fill[v]++] = e->start[i];
  }
  int ok = 1;
  for (long v = 0; v < n && ok; v++) {
    if (g->outIndex[v] != refIndex[v] || g->inIndex[v] != inIndex[v] ||
        g->outFill[v] != g->outDegree[v] || g->inFill[v] != g->inDegree[v]) {
      fprintf(stderr, "ssca2: vertex %ld: degrees or offsets wrong\n", v);
      ok = 0;
      break;
    }
    long lo = refIndex[v], hi = refIndex[v + 1];
    gather(a, g->outVertex, g->outWeight, lo, hi);
    for (long i = lo; i < hi; i++) {
      b[2 * (i - lo)] = refOut[2 * i];
      b[2 * (i - lo) + 1] = refOut[2 * i + 1];
    }
    qsort(b, (size_t)(hi - lo), 2 * sizeof(long), compare_pair);
    for (long i = 0; i < 2 * (hi - lo) && ok; i++)
      if (a[i] != b[i]) {
        fprintf(stderr, "ssca2: vertex %ld: out-edges differ\n", v);
        ok = 0;
      }
    lo = inIndex[v];
    hi = inIndex[v + 1];
    gather(a, g->inVertex, NULL, lo, hi);
    gather(b, refIn, NULL, lo, hi);
    for (long i = 0; i < 2 * (hi - lo) && ok; i++)
      if (a[i] != b[i]) {
        fprintf(stderr, "ssca2: vertex %ld: in-edges differ\n", v);
        ok = 0;
      }
  }
  free(refIndex);
  free(fill);
  free(refOut);
  free(refIn);
  free(inIndex);
  free(a);
  free(b);
  return ok;
}
