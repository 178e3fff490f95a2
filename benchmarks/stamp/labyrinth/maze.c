/* labyrinth's problem: input, set-up and the final check; see maze.h. */
#include "maze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

static int parse_error(const char *file, long line, const char *what) {
  fprintf(stderr, "labyrinth: %s:%ld: %s\n", file, line, what);
  return 0;
}

/* The grid index of the point C (x, y, z) in *AT; 0 if outside the grid. */
static int read_point(const grid_t *g, long c[3], long *at) {
  if (!grid_contains(g, c[0], c[1], c[2]))
    return 0;
  *at = grid_index(g, c[0], c[1], c[2]);
  return 1;
}

static int add_pair(maze_t *m, long *capacity, long src, long dst) {
  if (m->num_pairs == *capacity) {
    long n = *capacity ? 2 * *capacity : 64;
    maze_pair_t *p = realloc(m->pairs, (size_t)n * sizeof *p);
    if (!p)
      return 0;
    m->pairs = p;
    *capacity = n;
  }
  m->pairs[m->num_pairs] =
      (maze_pair_t){.id = m->num_pairs, .src = src, .dst = dst};
  m->num_pairs++;
  return 1;
}

/* Reads the file into M (grid and pairs on the private heap first). */
static int read_items(maze_t *m, const char *file, FILE *in) {
  char line[512];
  long lineno = 0, capacity = 0;
  grid_t *g = NULL;
  while (fgets(line, sizeof line, in)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(in))
      return parse_error(file, lineno, "line too long");
    char kind;
    long c[6];
    char extra;
    int n = sscanf(line, " %c", &kind);
    if (n != 1 || kind == '#')
      continue;
    if (kind == 'd') {
      if (g)
        return parse_error(file, lineno, "second 'd' line");
      if (sscanf(line, " d %ld %ld %ld %c", &c[0], &c[1], &c[2], &extra) != 3 ||
          c[0] < 1 || c[1] < 1 || c[2] < 1 || c[0] > 1L << 20 ||
          c[1] > 1L << 20 || c[2] > 1L << 10 || c[0] * c[1] * c[2] > 1L << 28)
        return parse_error(file, lineno,
                           "expected 'd X Y Z' with positive dimensions "
                           "(at most 2^28 points)");
      g = m->grid = grid_alloc(c[0], c[1], c[2], 1);
      if (!g)
        return parse_error(file, lineno, "out of memory for the grid");
    } else if (kind == 'p') {
      long src, dst;
      if (!g)
        return parse_error(file, lineno, "'p' before the 'd' line");
      if (sscanf(line, " p %ld %ld %ld %ld %ld %ld %c", &c[0], &c[1], &c[2],
                 &c[3], &c[4], &c[5], &extra) != 6)
        return parse_error(file, lineno, "expected 'p X1 Y1 Z1 X2 Y2 Z2'");
      if (!read_point(g, c, &src) || !read_point(g, c + 3, &dst))
        return parse_error(file, lineno, "endpoint outside the grid");
      if (src == dst)
        return parse_error(file, lineno, "source equals destination");
      if (!add_pair(m, &capacity, src, dst))
        return parse_error(file, lineno, "out of memory");
      /* As in STAMP: an endpoint may be another pair's too (shared), and an
       * endpoint on a wall replaces the wall. */
      for (int k = 0; k < 2; k++) {
        long at = k ? dst : src;
        if (g->points[at] == GRID_WALL)
          m->num_walls--;
        g->points[at] = grid_is_endpoint(g->points[at])
                            ? GRID_SHARED
                            : grid_endpoint(m->num_pairs - 1);
      }
    } else if (kind == 'w') {
      long at;
      if (!g)
        return parse_error(file, lineno, "'w' before the 'd' line");
      if (sscanf(line, " w %ld %ld %ld %c", &c[0], &c[1], &c[2], &extra) != 3)
        return parse_error(file, lineno, "expected 'w X Y Z'");
      if (!read_point(g, c, &at))
        return parse_error(file, lineno, "wall outside the grid");
      if (g->points[at] == GRID_EMPTY) { /* (a wall on an endpoint: moot) */
        m->num_walls++;
        g->points[at] = GRID_WALL;
      }
    } else {
      return parse_error(file, lineno, "unknown item (expected d, p, w, #)");
    }
  }
  if (ferror(in))
    return parse_error(file, lineno, "read error");
  if (!g)
    return parse_error(file, lineno, "no 'd' line");
  return 1;
}

maze_t *maze_read(const char *file, long num_threads) {
  FILE *in = fopen(file, "r");
  if (!in) {
    fprintf(stderr, "labyrinth: cannot open input '%s'\n", file);
    return NULL;
  }
  maze_t *m = TM_MALLOC(sizeof *m);
  if (!m) {
    fclose(in);
    fprintf(stderr, "labyrinth: out of memory\n");
    return NULL;
  }
  memset(m, 0, sizeof *m);
  int ok = read_items(m, file, in);
  fclose(in);
  if (ok) {
    /* Pairs, queue and path lists move into the pool. */
    maze_pair_t *heap_pairs = m->pairs;
    size_t bytes = (size_t)(m->num_pairs ? m->num_pairs : 1) * sizeof *m->pairs;
    m->pairs = TM_MALLOC(bytes);
    m->work = queue_alloc(m->num_pairs + 1);
    m->num_threads = num_threads;
    m->paths_by_thread = TM_MALLOC((size_t)num_threads * sizeof(path_t *));
    if (!m->pairs || !m->work || !m->paths_by_thread) {
      fprintf(stderr, "labyrinth: out of memory\n");
      ok = 0;
    } else {
      if (m->num_pairs)
        memcpy(m->pairs, heap_pairs, bytes);
      for (long t = 0; t < num_threads; t++)
        m->paths_by_thread[t] = NULL;
      for (long i = 0; i < m->num_pairs && ok; i++)
        ok = queue_push(m->work, &m->pairs[i]);
    }
    free(heap_pairs);
  } else {
    free(m->pairs);
    m->pairs = NULL;
  }
  if (!ok) {
    maze_free(m);
    return NULL;
  }
  return m;
}

void maze_free(maze_t *m) {
  if (!m)
    return;
  if (m->paths_by_thread) {
    for (long t = 0; t < m->num_threads; t++) {
      path_t *p = m->paths_by_thread[t];
      while (p) {
        path_t *next = p->next;
        TM_FREE(p);
        p = next;
      }
    }
    TM_FREE(m->paths_by_thread);
  }
  if (m->work)
    queue_free(m->work);
  if (m->pairs)
    TM_FREE(m->pairs);
  grid_free(m->grid, 1);
  TM_FREE(m);
}

static long check_error(const char *what, long pair) {
  fprintf(stderr, "labyrinth: check failed: path of pair %ld: %s\n", pair,
          what);
  return -1;
}

/* Checks one path against the expected grid E, marking its points. */
static long check_path(const maze_t *m, long *e, const path_t *p,
                       char *routed) {
  const grid_t *g = m->grid;
  if (p->pair < 0 || p->pair >= m->num_pairs)
    return check_error("unknown pair", p->pair);
  if (routed[p->pair])
    return check_error("routed twice", p->pair);
  routed[p->pair] = 1;
  const maze_pair_t *pr = &m->pairs[p->pair];
  if (p->length < 2 || p->points[0] != pr->src ||
      p->points[p->length - 1] != pr->dst)
    return check_error("endpoints do not match the pair", p->pair);
  for (long i = 0; i < p->length; i++) {
    long at = p->points[i];
    if (at < 0 || at >= grid_size(g))
      return check_error("point outside the grid", p->pair);
    if (i > 0 && !grid_adjacent(g, p->points[i - 1], at))
      return check_error("not contiguous", p->pair);
    int endpoint = i == 0 || i == p->length - 1;
    if (endpoint && e[at] == GRID_SHARED)
      continue; /* (stays shared) */
    long want = endpoint ? grid_endpoint(p->pair) : GRID_EMPTY;
    if (e[at] != want)
      return check_error(e[at] >= 0           ? "overlaps another path"
                         : e[at] == GRID_WALL ? "crosses a wall"
                         : e[at] == GRID_EMPTY
                             ? "revisits a point"
                             : "crosses another pair's endpoint",
                         p->pair);
    e[at] = p->pair;
  }
  return 0;
}

long maze_check(const maze_t *m) {
  const grid_t *g = m->grid;
  long n = grid_size(g);
  long *e = malloc((size_t)n * sizeof *e);
  char *routed = calloc((size_t)m->num_pairs + 1, 1);
  if (!e || !routed) {
    free(e);
    free(routed);
    fprintf(stderr, "labyrinth: out of memory for the check\n");
    return -1;
  }
  /* The expected grid before routing: walls and reserved endpoints, taken
   * from the shared grid's non-path points and the pairs. */
  for (long i = 0; i < n; i++)
    e[i] = g->points[i] == GRID_WALL ? GRID_WALL : GRID_EMPTY;
  long walls = 0;
  for (long i = 0; i < n; i++)
    walls += e[i] == GRID_WALL;
  long result = 0;
  if (walls != m->num_walls) {
    fprintf(stderr, "labyrinth: check failed: %ld walls, input had %ld\n",
            walls, m->num_walls);
    result = -1;
  }
  for (long i = 0; i < m->num_pairs; i++)
    for (int k = 0; k < 2; k++) {
      long at = k ? m->pairs[i].dst : m->pairs[i].src;
      e[at] = grid_is_endpoint(e[at]) ? GRID_SHARED : grid_endpoint(i);
    }
  for (long t = 0; t < m->num_threads && result >= 0; t++)
    for (const path_t *p = m->paths_by_thread[t]; p && result >= 0;
         p = p->next) {
      if (check_path(m, e, p, routed) < 0)
        result = -1;
      else
        result++;
    }
  for (long i = 0; i < n && result >= 0; i++)
    if (g->points[i] != e[i]) {
      fprintf(stderr,
              "labyrinth: check failed: grid point %ld is %ld, the routed "
              "paths make it %ld\n",
              i, g->points[i], e[i]);
      result = -1;
    }
  free(e);
  free(routed);
  return result;
}
