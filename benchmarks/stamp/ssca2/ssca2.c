/*
 * ssca2 (STAMP, Minh et al. IISWC 2008): kernel 1 of the SSCA#2 graph
 * benchmark, the efficient construction of a large directed multigraph's
 * adjacency arrays from an edge list by many threads (graph.h), on the
 * scalable data generator's clique graphs (gen.h). At the end the graph
 * must hold exactly the generated edges: every vertex's out-list (end,
 * weight) and in-list equal to the edge list's.
 *
 *   ssca2 [-s SCALE] [-i PROB_INTERCLIQUE] [-u PROB_UNIDIRECTIONAL]
 *         [-l PATH_LENGTH] [-p MAX_PARALLEL_EDGES] [-w PERCENT_INT_WEIGHTS]
 *         [-r SEED] [-t THREADS]
 *
 * simulator input: -s13 -i1.0 -u1.0 -l3 -p3; larger: -s20 -i1.0 -u1.0 -l3 -p3
 * (-l is kernel 4's subgraph path length: accepted, unused, as in STAMP,
 * which runs kernel 1 only).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "graph.h"
#include "options.h"
#include "stamp_result.h"
#include "tm.h"

static long numThread = 1, pathLength = 3;
static gen_params_t params = {.scale = 20,
                              .probIntercl = 1.0,
                              .probUnidirectional = 1.0,
                              .maxParalEdges = 3,
                              .percIntWeights = 60,
                              .seed = 1};

static void usage(void) {
  fprintf(
      stderr,
      "usage: ssca2 [-s SCALE] [-i PROB_INTERCLIQUE] [-u PROB_UNIDIRECTIONAL]"
      "\n             [-l PATH_LENGTH] [-p MAX_PARALLEL_EDGES] "
      "[-w PERCENT_INT_WEIGHTS]\n             [-r SEED] [-t THREADS]\n"
      "  defaults: -s20 -i1.0 -u1.0 -l3 -p3 -w60 -r1 -t1\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'s', STAMP_OPT_LONG, &params.scale, 1, 30},
    {'i', STAMP_OPT_DOUBLE, &params.probIntercl, 0, 1},
    {'u', STAMP_OPT_DOUBLE, &params.probUnidirectional, 0, 1},
    {'l', STAMP_OPT_LONG, &pathLength, 1, 1L << 20},
    {'p', STAMP_OPT_LONG, &params.maxParalEdges, 1, 1L << 10},
    {'w', STAMP_OPT_LONG, &params.percIntWeights, 0, 100},
    {'r', STAMP_OPT_ULONG, &params.seed, 0, 1L << 32},
    {'t', STAMP_OPT_LONG, &numThread, 1, STAMP_MAX_THREADS},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "ssca2", options, usage);
  edges_t *edges = gen_edges(&params);
  graph_t *graph = edges ? graph_alloc(edges) : NULL;
  if (!graph) {
    fprintf(stderr, "ssca2: out of memory (PTM_POOL_SIZE?)\n");
    return 1;
  }
  printf("ssca2: scale %ld: %ld vertices, %ld edges (path length %ld), "
         "threads %ld\n",
         params.scale, edges->numVertices, edges->numEdges, pathLength,
         numThread);
  stamp_result_run(numThread, graph_compute, graph);
  int ok = graph_check(graph);
  return stamp_result_print("ssca2", numThread, ok);
}
