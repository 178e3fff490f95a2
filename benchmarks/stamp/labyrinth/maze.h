/*
 * maze.h - labyrinth's problem: the shared grid, the (source, destination)
 * pairs to connect, the work queue of pairs not yet taken, and the routed
 * paths. Everything routers share lives in the pool.
 *
 * Input format (STAMP's labyrinth inputs), one item per line:
 *   # comment
 *   d X Y Z                  grid dimensions (first item)
 *   p X1 Y1 Z1 X2 Y2 Z2      a pair to route, source then destination
 *   w X Y Z                  a wall point
 * Endpoints must be inside the grid, distinct from every other endpoint and
 * not on a wall.
 */
#ifndef LABYRINTH_MAZE_H
#define LABYRINTH_MAZE_H

#include "grid.h"
#include "queue.h"

typedef struct maze_pair {
  long id;  /* index in input order */
  long src; /* grid indices */
  long dst;
} maze_pair_t;

/* A routed path, source to destination, in the pool. */
typedef struct path {
  long pair;
  long length; /* points, endpoints included */
  struct path *next;
  long points[];
} path_t;

typedef struct maze {
  grid_t *grid;
  long num_pairs;
  maze_pair_t *pairs;
  long num_walls;
  queue_t *work; /* maze_pair_t * not yet routed by anyone */
  long num_threads;
  path_t **paths_by_thread; /* each router's list of routed paths */
} maze_t;

/* Reads FILE into a new maze for NUM_THREADS routers; NULL after a message
 * on stderr if the file is unreadable or malformed. */
maze_t *maze_read(const char *file, long num_threads);
void maze_free(maze_t *m);

/* Checks the routed paths against the input: each one belongs to a distinct
 * pair, starts at its source, ends at its destination, moves one step along
 * one axis at a time, crosses no wall, no other path and no other pair's
 * endpoint; the shared grid holds exactly these paths and the endpoints of
 * the unrouted pairs. Returns the number of routed paths, or -1 after a
 * message on stderr. */
long maze_check(const maze_t *m);

#endif /* LABYRINTH_MAZE_H */
