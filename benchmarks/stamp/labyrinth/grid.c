/* labyrinth's routing grid: see grid.h. */
#include "grid.h"

#include <stdlib.h>

#include "tm.h"

grid_t *grid_alloc(long width, long height, long depth, int shared) {
  grid_t *g = shared ? TM_MALLOC(sizeof *g) : malloc(sizeof *g);
  if (!g)
    return NULL;
  g->width = width;
  g->height = height;
  g->depth = depth;
  size_t bytes = (size_t)grid_size(g) * sizeof(long);
  g->points = shared ? TM_MALLOC(bytes) : malloc(bytes);
  if (!g->points) {
    if (shared)
      TM_FREE(g);
    else
      free(g);
    return NULL;
  }
  for (long i = 0; i < grid_size(g); i++)
    g->points[i] = GRID_EMPTY;
  return g;
}

void grid_free(grid_t *g, int shared) {
  if (!g)
    return;
  if (shared) {
    TM_FREE(g->points);
    TM_FREE(g);
  } else {
    free(g->points);
    free(g);
  }
}

int grid_adjacent(const grid_t *g, long a, long b) {
  long d = a > b ? a - b : b - a;
  long plane = g->width * g->height;
  if (d == 1) /* same row: x differs by one */
    return a / g->width == b / g->width;
  if (d == g->width) /* same plane: y differs by one */
    return a / plane == b / plane;
  return d == plane; /* z differs by one */
}
