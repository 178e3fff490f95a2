/*
 * graph.h - ssca2's kernel 1 (the part STAMP runs): builds, from the edge
 * list, the graph's compressed adjacency arrays in parallel. Every thread
 * takes a share of the edges: a transaction per edge counts it in the
 * start vertex's out-degree and the end vertex's in-degree (and a
 * transaction per thread raises the shared maximum vertex id); thread 0
 * turns the degrees into offsets; then a transaction per edge claims the
 * next free slot of the out-list of its start and of the in-list of its
 * end vertex and fills both.
 */
#ifndef SSCA2_GRAPH_H
#define SSCA2_GRAPH_H

#include "gen.h"

typedef struct graph {
  edges_t *edges;
  long maxVertex; /* largest vertex id seen */
  long numVertices;
  long *outDegree, *inDegree;  /* [numVertices] */
  long *outIndex, *inIndex;    /* [numVertices + 1]: list offsets */
  long *outFill, *inFill;      /* [numVertices]: slots taken */
  long *outVertex, *outWeight; /* [numEdges]: out-lists (end, weight) */
  long *inVertex;              /* [numEdges]: in-lists (start) */
} graph_t;

/* Shared arrays sized for the edge list's vertex count. */
graph_t *graph_alloc(edges_t *edges);
/* thread_start() body: kernel 1. */
void graph_compute(void *arg);
/* The graph holds exactly the edge list (outside transactions). */
int graph_check(graph_t *g);

#endif /* SSCA2_GRAPH_H */
