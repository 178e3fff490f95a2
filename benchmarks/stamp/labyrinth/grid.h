/*
 * grid.h - labyrinth's 3-D routing grid: one long per point, in x-fastest
 * order. The shared grid lives in the pool (TM_MALLOC); each router thread
 * has a private grid of the same shape for its expansion.
 *
 * Values of the shared grid:
 *   GRID_EMPTY          free
 *   GRID_WALL           an obstacle of the input
 *   grid_endpoint(p)    the source or destination of pair p, reserved for
 *                       it until it is routed (other paths go around it)
 *   GRID_SHARED         an endpoint of several pairs (STAMP's inputs have
 *                       them, and its router accepts them: it never checks
 *                       or writes a path's end points): every path that
 *                       ends there leaves it as it is
 *   p >= 0              a point of the routed path of pair p
 */
#ifndef LABYRINTH_GRID_H
#define LABYRINTH_GRID_H

#define GRID_EMPTY (-1L)
#define GRID_WALL (-2L)
#define GRID_SHARED (-3L)

static inline long grid_endpoint(long pair) { return -4L - pair; }
static inline int grid_is_endpoint(long v) { return v <= GRID_SHARED; }

/* The value a path of PAIR must find at one of its end points. */
static inline int grid_endpoint_of(long v, long pair) {
  return v == grid_endpoint(pair) || v == GRID_SHARED;
}

typedef struct grid {
  long width, height, depth; /* x, y, z extents */
  long *points;              /* width * height * depth values */
} grid_t;

/* A grid of the given shape with every point GRID_EMPTY, from TM_MALLOC
 * (shared != 0) or the private heap; NULL if out of memory. */
grid_t *grid_alloc(long width, long height, long depth, int shared);
void grid_free(grid_t *g, int shared);

static inline long grid_size(const grid_t *g) {
  return g->width * g->height * g->depth;
}

static inline long grid_index(const grid_t *g, long x, long y, long z) {
  return (z * g->height + y) * g->width + x;
}

static inline int grid_contains(const grid_t *g, long x, long y, long z) {
  return x >= 0 && x < g->width && y >= 0 && y < g->height && z >= 0 &&
         z < g->depth;
}

/* Whether points A and B (indices) are neighbours along one axis. */
int grid_adjacent(const grid_t *g, long a, long b);

#endif /* LABYRINTH_GRID_H */
