/*
 * gen.h - ssca2's input (SSCA#2 scalable data generator): 2^SCALE vertices
 * in random order, grouped into cliques of 1..2^(SCALE/3) vertices. Inside a
 * clique every pair is connected (one direction with probability
 * probUnidirectional, else both), each connection by 1..maxParalEdges
 * parallel edges; every vertex also gets edges to the vertices 1, 2, 4, ...
 * positions further on, with probability probIntercl halving at each step.
 * An edge has an integer weight in [1, 2^SCALE] with probability
 * percIntWeights %, else a string weight (kept as a negative string id; the
 * strings serve SSCA#2 kernels 2-4, which STAMP does not run).
 */
#ifndef SSCA2_GEN_H
#define SSCA2_GEN_H

typedef struct gen_params {
  long scale;
  double probIntercl;        /* -i */
  double probUnidirectional; /* -u */
  long maxParalEdges;        /* -p */
  long percIntWeights;       /* -w */
  unsigned long seed;
} gen_params_t;

typedef struct edges {
  long numVertices;
  long numEdges;
  long *start, *end, *weight; /* [numEdges], in the pool, read-only */
} edges_t;

/* NULL when out of memory. */
edges_t *gen_edges(const gen_params_t *p);

#endif /* SSCA2_GEN_H */
