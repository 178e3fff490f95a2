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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

static long parse(int opt, const char *s, long min, long max) {
  return stamp_option_long("ssca2", opt, s, min, max, usage);
}

static double parse_prob(int opt, const char *s) {
  return stamp_option_double("ssca2", opt, s, 0, 1, usage);
}

int main(int argc, char **argv) {
  int c;
  opterr = 0;
  while ((c = getopt(argc, argv, "s:i:u:l:p:w:r:t:h")) != -1) {
    switch (c) {
    case 's':
      params.scale = parse(c, optarg, 1, 30);
      break;
    case 'i':
      params.probIntercl = parse_prob(c, optarg);
      break;
    case 'u':
      params.probUnidirectional = parse_prob(c, optarg);
      break;
    case 'l':
      pathLength = parse(c, optarg, 1, 1L << 20);
      break;
    case 'p':
      params.maxParalEdges = parse(c, optarg, 1, 1L << 10);
      break;
    case 'w':
      params.percIntWeights = parse(c, optarg, 0, 100);
      break;
    case 'r':
      params.seed = (unsigned long)parse(c, optarg, 0, 1L << 32);
      break;
    case 't':
      numThread = parse(c, optarg, 1, STAMP_MAX_THREADS);
      break;
    default:
      if (c != 'h')
        fprintf(stderr, "ssca2: bad option -%c\n", optopt);
      usage();
    }
  }
  if (optind < argc) {
    fprintf(stderr, "ssca2: unexpected argument '%s'\n", argv[optind]);
    usage();
  }
  TM_STARTUP(numThread);
  thread_startup(numThread);
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
  stamp_result_start();
  thread_start(graph_compute, graph);
  stamp_result_stop();
  int ok = graph_check(graph);
  thread_shutdown();
  TM_SHUTDOWN();
  return stamp_result_print("ssca2", numThread, ok);
}
