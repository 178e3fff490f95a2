/*
 * labyrinth - STAMP's maze routing application (Minh et al., IISWC 2008):
 * Lee's algorithm connects (source, destination) pairs in a 3-D grid, every
 * routing one transaction (router.h). At the end every routed path is
 * checked (maze.h) and the RESULT line printed.
 *
 *   labyrinth -i FILE [-t THREADS] [-b BEND_COST] [-x COST] [-y COST] [-z COST]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "maze.h"
#include "options.h"
#include "router.h"
#include "stamp_result.h"
#include "tm.h"

static void usage(void) {
  fprintf(stderr,
          "usage: labyrinth -i FILE [-t THREADS] [-b BEND_COST] [-x X_COST] "
          "[-y Y_COST] [-z Z_COST]\n"
          "  -i FILE       the maze (d/p/w lines, see docs/stamp.md)\n"
          "  -t THREADS    router threads (default 1)\n"
          "  -b BEND_COST  penalty of a change of direction (default 1)\n"
          "  -x/-y/-z COST cost of a step along that axis (default 1)\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *input = NULL;
  long threads = 1;
  router_t router = {.cost = {1, 1, 1}, .bend_cost = 1};
  const stamp_option_t options[] = {
      {'i', STAMP_OPT_STRING, &input, 0, 0},
      {'t', STAMP_OPT_LONG, &threads, 1, STAMP_MAX_THREADS},
      {'b', STAMP_OPT_LONG, &router.bend_cost, 0, 1L << 20},
      {'x', STAMP_OPT_LONG, &router.cost[0], 1, 1L << 20},
      {'y', STAMP_OPT_LONG, &router.cost[1], 1, 1L << 20},
      {'z', STAMP_OPT_LONG, &router.cost[2], 1, 1L << 20},
      {0, STAMP_OPT_FLAG, NULL, 0, 0}};
  stamp_parse_options(argc, argv, "labyrinth", options, usage);
  if (!input) {
    fprintf(stderr, "labyrinth: no input file (-i FILE)\n");
    usage();
  }

  maze_t *maze = maze_read(input, threads);
  if (!maze)
    return 1;
  router.maze = maze;
  router.routed = calloc((size_t)threads, sizeof(long));
  router.failed = calloc((size_t)threads, sizeof(long));
  if (!router.routed || !router.failed) {
    fprintf(stderr, "labyrinth: out of memory\n");
    return 1;
  }
  printf("Maze dimensions = %ld x %ld x %ld\n", maze->grid->width,
         maze->grid->height, maze->grid->depth);
  printf("Paths to route  = %ld\n", maze->num_pairs);

  stamp_result_run(threads, router_solve, &router);

  long routed = 0, failed = 0;
  for (long t = 0; t < threads; t++) {
    routed += router.routed[t];
    failed += router.failed[t];
  }
  printf("Paths routed    = %ld\n", routed);
  printf("Elapsed time    = %f seconds\n", stamp_result_seconds());

  int ok = 1;
  if (router.out_of_memory) {
    fprintf(stderr, "labyrinth: out of memory while routing\n");
    ok = 0;
  }
  long checked = maze_check(maze);
  if (checked < 0) {
    ok = 0;
  } else if (checked != routed || routed + failed != maze->num_pairs) {
    fprintf(stderr,
            "labyrinth: check failed: %ld paths in the grid, %ld routed and "
            "%ld unroutable of %ld pairs\n",
            checked, routed, failed, maze->num_pairs);
    ok = 0;
  } else {
    printf("Verification    = %ld paths valid\n", checked);
  }
  int status = stamp_result_print("labyrinth", threads, ok);
  maze_free(maze);
  free(router.routed);
  free(router.failed);
  return status;
}
