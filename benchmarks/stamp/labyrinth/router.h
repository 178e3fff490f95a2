/*
 * router.h - labyrinth's router (Lee's maze-routing algorithm): each thread
 * takes pairs from the maze's work queue and, in one transaction per pair,
 * copies the shared grid into its private grid, expands a wave from the
 * source until it reaches the destination (breadth-first, with per-axis
 * costs), traces the cheapest path back (preferring straight segments by
 * the bend cost), then checks that every point of the path is still free in
 * the shared grid and writes the path there, restarting on a conflict.
 */
#ifndef LABYRINTH_ROUTER_H
#define LABYRINTH_ROUTER_H

#include "maze.h"

typedef struct router {
  maze_t *maze;
  long cost[3];   /* expansion cost of a step along x, y, z (>= 1) */
  long bend_cost; /* traceback penalty of a change of direction (>= 0) */
  long *routed;   /* per thread: paths routed */
  long *failed;   /* per thread: pairs found unroutable */
  int out_of_memory;
} router_t;

/* The thread function: thread_start(router_solve, router). */
void router_solve(void *router);

#endif /* LABYRINTH_ROUTER_H */
