/* labyrinth's router: see router.h. */
#include "router.h"

#include <limits.h>
#include <stdlib.h>

#include "tm.h"

/* Private grid values besides distances (>= 0). */
#define MY_OPEN (-1L) /* passable, not reached yet */
#define MY_BLOCKED (-2L)

/* A router thread's private working memory (never shared). */
typedef struct router_local {
  long size;
  long *dist;        /* the private grid */
  long *queue;       /* circular FIFO of grid indices, capacity size */
  unsigned char *in; /* whether a point is in the queue */
  long *path;        /* the traced path, source first */
} router_local_t;

static router_local_t *local_alloc(long size) {
  router_local_t *l = malloc(sizeof *l);
  if (!l)
    return NULL;
  l->size = size;
  l->dist = malloc((size_t)size * sizeof(long));
  l->queue = malloc((size_t)size * sizeof(long));
  l->in = malloc((size_t)size);
  l->path = malloc((size_t)size * sizeof(long));
  if (!l->dist || !l->queue || !l->in || !l->path) {
    free(l->dist);
    free(l->queue);
    free(l->in);
    free(l->path);
    free(l);
    return NULL;
  }
  return l;
}

static void local_free(router_local_t *l) {
  free(l->dist);
  free(l->queue);
  free(l->in);
  free(l->path);
  free(l);
}

/* The neighbour of AT in direction DIR (0..5: -x +x -y +y -z +z), or -1. */
static long neighbour(const grid_t *g, long at, int dir) {
  long x = at % g->width;
  long y = (at / g->width) % g->height;
  long z = at / (g->width * g->height);
  switch (dir) {
  case 0:
    return x > 0 ? at - 1 : -1;
  case 1:
    return x + 1 < g->width ? at + 1 : -1;
  case 2:
    return y > 0 ? at - g->width : -1;
  case 3:
    return y + 1 < g->height ? at + g->width : -1;
  case 4:
    return z > 0 ? at - g->width * g->height : -1;
  default:
    return z + 1 < g->depth ? at + g->width * g->height : -1;
  }
}

/* Wave expansion from SRC over the private grid (a FIFO relaxation that
 * stops improving once no step can beat the best distance to DST); returns
 * whether DST was reached. */
static int expand(const router_t *r, const grid_t *g, router_local_t *l,
                  long src, long dst) {
  long *dist = l->dist;
  long head = 0, count = 0, best = LONG_MAX;
  dist[src] = 0;
  l->queue[0] = src;
  l->in[src] = 1;
  count = 1;
  while (count > 0) {
    long u = l->queue[head];
    head = head + 1 == l->size ? 0 : head + 1;
    count--;
    l->in[u] = 0;
    if (dist[u] >= best)
      continue;
    for (int dir = 0; dir < 6; dir++) {
      long v = neighbour(g, u, dir);
      if (v < 0 || dist[v] == MY_BLOCKED)
        continue;
      long d = dist[u] + r->cost[dir / 2];
      if (d >= best || (dist[v] >= 0 && dist[v] <= d))
        continue;
      dist[v] = d;
      if (v == dst) {
        best = d;
      } else if (!l->in[v]) {
        long tail = head + count;
        l->queue[tail >= l->size ? tail - l->size : tail] = v;
        l->in[v] = 1;
        count++;
      }
    }
  }
  return dist[dst] >= 0;
}

/* Walks back from DST along exact distance decrements, taking a straight
 * step when one exists (bend cost > 0); fills l->path source first and
 * returns its length. */
static long traceback(const router_t *r, const grid_t *g, router_local_t *l,
                      long src, long dst) {
  long *dist = l->dist;
  long len = 0, at = dst;
  int prev = -1;
  l->path[len++] = dst;
  while (at != src) {
    long next = -1, best_penalty = LONG_MAX;
    int next_dir = -1;
    for (int dir = 0; dir < 6; dir++) {
      long v = neighbour(g, at, dir);
      if (v < 0 || dist[v] < 0 || dist[v] + r->cost[dir / 2] != dist[at])
        continue;
      long penalty = prev >= 0 && dir != prev ? r->bend_cost : 0;
      if (penalty < best_penalty) {
        best_penalty = penalty;
        next = v;
        next_dir = dir;
      }
    }
    if (next < 0 || len == l->size)
      return 0; /* cannot happen with consistent distances */
    at = next;
    prev = next_dir;
    l->path[len++] = at;
  }
  for (long i = 0, j = len - 1; i < j; i++, j--) {
    long t = l->path[i];
    l->path[i] = l->path[j];
    l->path[j] = t;
  }
  return len;
}

/* The private part of a routing transaction, run uninstrumented (STAMP
 * copies the grid and expands on thread-local memory without barriers): the
 * copy reads the shared grid racily; the transaction validates the path it
 * finds point by point before writing it. Returns the path length, or 0 if
 * DST cannot be reached. Built with -DLABYRINTH_COPY_IN_TX it runs
 * instrumented instead, as code written for a manual STM interface does
 * when compiled as it is: every write to the private grid (DRAM) goes
 * through a barrier (docs/stamp.md measures what that costs). */
#ifdef LABYRINTH_COPY_IN_TX
#define ROUTE_PRIVATE_ATTR
#else
#define ROUTE_PRIVATE_ATTR PTM_PURE
#endif
static ROUTE_PRIVATE_ATTR long route_private(const router_t *r, const grid_t *g,
                                             const long *shared,
                                             router_local_t *l, long src,
                                             long dst) {
  for (long i = 0; i < l->size; i++) {
    l->dist[i] = shared[i] == GRID_EMPTY ? MY_OPEN : MY_BLOCKED;
    l->in[i] = 0;
  }
  l->dist[dst] = MY_OPEN;
  if (!expand(r, g, l, src, dst))
    return 0;
  return traceback(r, g, l, src, dst);
}

void router_solve(void *arg) {
  router_t *r = arg;
  maze_t *m = r->maze;
  long tid = thread_getId();
  router_local_t *l = local_alloc(grid_size(m->grid));
  if (!l) {
    r->out_of_memory = 1;
    return;
  }
  for (;;) {
    maze_pair_t *pair;
    TM_BEGIN();
    pair = queue_pop(m->work);
    TM_END();
    if (!pair)
      break;
    long len = 0;
    int oom = 0;
    TM_BEGIN();
    grid_t *g = m->grid;
    long id = pair->id;
    long src = pair->src;
    long dst = pair->dst;
    len = route_private(r, g, g->points, l, src, dst);
    if (len > 0) {
      for (long i = 0; i < len; i++) {
        long v = g->points[l->path[i]];
        if (i == 0 || i == len - 1 ? !grid_endpoint_of(v, id) : v != GRID_EMPTY)
          TM_RESTART();
      }
      path_t *p = TM_MALLOC(sizeof *p + (size_t)len * sizeof(long));
      if (p) {
        for (long i = 0; i < len; i++) {
          if (g->points[l->path[i]] != GRID_SHARED)
            g->points[l->path[i]] = id;
          p->points[i] = l->path[i];
        }
        p->pair = id;
        p->length = len;
        p->next = m->paths_by_thread[tid];
        m->paths_by_thread[tid] = p;
      } else {
        oom = 1;
      }
    }
    TM_END();
    if (oom) {
      r->out_of_memory = 1;
      break;
    }
    if (len > 0)
      r->routed[tid]++;
    else
      r->failed[tid]++;
  }
  local_free(l);
}
