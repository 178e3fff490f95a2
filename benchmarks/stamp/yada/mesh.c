/* yada's mesh: input, set-up and the final check; see mesh.h. */
#include "mesh.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

/* ---- Reading Triangle's files -------------------------------------------
 */

typedef struct reader {
  FILE *in;
  char name[512];
  long line;
  char text[1024];
} reader_t;

static int reader_open(reader_t *r, const char *prefix, const char *ext) {
  snprintf(r->name, sizeof r->name, "%s.%s", prefix, ext);
  r->line = 0;
  r->in = fopen(r->name, "r");
  if (!r->in)
    fprintf(stderr, "yada: cannot open '%s'\n", r->name);
  return r->in != NULL;
}

static int fail(const reader_t *r, const char *what) {
  fprintf(stderr, "yada: %s:%ld: %s\n", r->name, r->line, what);
  return 0;
}

/* The next line with content (comments after '#' removed) in r->text. */
static int next_line(reader_t *r) {
  while (fgets(r->text, sizeof r->text, r->in)) {
    r->line++;
    char *hash = strchr(r->text, '#');
    if (hash)
      *hash = '\0';
    if (strspn(r->text, " \t\r\n") != strlen(r->text))
      return 1;
  }
  return fail(r, "unexpected end of file");
}

/* Reads up to MAX numbers of the current line; returns how many. */
static int numbers(reader_t *r, double *v, int max) {
  int n = 0;
  char *p = r->text, *end;
  while (n < max) {
    double d = strtod(p, &end);
    if (end == p)
      break;
    v[n++] = d;
    p = end;
  }
  return n;
}

static int read_count(reader_t *r, double *v, int need) {
  return next_line(r) && numbers(r, v, 4) >= need;
}

typedef struct input {
  long num_nodes, base;
  coord_t *nodes;
  long num_tris;
  long (*tris)[3];
  long num_segs;
  long (*segs)[2];
} input_t;

static int read_nodes(input_t *in, const char *prefix) {
  reader_t r;
  double v[8];
  if (!reader_open(&r, prefix, "node"))
    return 0;
  int ok = read_count(&r, v, 2);
  if (!ok || v[0] < 3 || v[0] > 1e8 || v[1] != 2)
    ok = fail(&r, "expected '<#points> 2 ...' with at least 3 points");
  if (ok) {
    in->num_nodes = (long)v[0];
    in->nodes = malloc((size_t)in->num_nodes * sizeof *in->nodes);
    if (!in->nodes)
      ok = fail(&r, "out of memory");
  }
  for (long i = 0; ok && i < in->num_nodes; i++) {
    if (!next_line(&r) || numbers(&r, v, 3) < 3) {
      ok = fail(&r, "expected '<index> <x> <y>'");
      break;
    }
    if (i == 0)
      in->base = (long)v[0];
    if (v[0] != (double)(in->base + i) || in->base < 0 || in->base > 1) {
      ok = fail(&r, "points must be numbered consecutively from 0 or 1");
      break;
    }
    in->nodes[i] = (coord_t){v[1], v[2]};
  }
  fclose(r.in);
  return ok;
}

/* A vertex index of the files into 0..num_nodes-1, or -1. */
static long vertex(const input_t *in, double v) {
  long i = (long)v - in->base;
  return v == (double)(long)v && i >= 0 && i < in->num_nodes ? i : -1;
}

/* COUNT lines '<index> <v1> ... <vK>' of vertices into ROWS (COUNT x K);
 * EXPECT and RANGE: the messages of a malformed line, a bad vertex. */
static int read_vertex_rows(reader_t *r, const input_t *in, long count, int k,
                            long *rows, const char *expect, const char *range) {
  double v[8];
  for (long i = 0; i < count; i++) {
    if (!next_line(r) || numbers(r, v, k + 1) < k + 1)
      return fail(r, expect);
    for (int j = 0; j < k; j++)
      if ((rows[i * k + j] = vertex(in, v[j + 1])) < 0)
        return fail(r, range);
  }
  return 1;
}

static int read_elements(input_t *in, const char *prefix) {
  reader_t r;
  double v[8];
  if (!reader_open(&r, prefix, "ele"))
    return 0;
  int ok = read_count(&r, v, 2);
  if (!ok || v[0] < 1 || v[0] > 1e8 || v[1] != 3)
    ok = fail(&r, "expected '<#triangles> 3 ...' (3-node triangles)");
  if (ok) {
    in->num_tris = (long)v[0];
    in->tris = malloc((size_t)in->num_tris * sizeof *in->tris);
    if (!in->tris)
      ok = fail(&r, "out of memory");
  }
  if (ok)
    ok = read_vertex_rows(&r, in, in->num_tris, 3, &in->tris[0][0],
                          "expected '<index> <a> <b> <c>'",
                          "triangle vertex out of range");
  fclose(r.in);
  return ok;
}

static int read_segments(input_t *in, const char *prefix) {
  reader_t r;
  double v[8];
  if (!reader_open(&r, prefix, "poly"))
    return 0;
  int ok = read_count(&r, v, 1);
  if (ok && v[0] != 0)
    ok = fail(&r, "the .poly file must take its points from the .node file "
                  "(first number 0)");
  if (ok && (!read_count(&r, v, 1) || v[0] < 0 || v[0] > 1e8))
    ok = fail(&r, "expected '<#segments> ...'");
  if (ok) {
    in->num_segs = (long)v[0];
    in->segs = malloc((size_t)(in->num_segs + 1) * sizeof *in->segs);
    if (!in->segs)
      ok = fail(&r, "out of memory");
  }
  if (ok)
    ok = read_vertex_rows(&r, in, in->num_segs, 2, &in->segs[0][0],
                          "expected '<index> <a> <b>'",
                          "segment vertex out of range");
  if (ok && (!read_count(&r, v, 1) || v[0] != 0))
    ok = fail(&r, "holes are not supported (expected '0')");
  fclose(r.in);
  return ok;
}

/* ---- Building the mesh ----------------------------------------------------
 */

/* Directed edges (from, to) of the input triangles -> (triangle, edge). */
typedef struct edge_map {
  size_t mask;
  long *key; /* from * num_nodes + to, or -1 */
  element_t **tri;
  long *edge;
} edge_map_t;

static int edge_map_init(edge_map_t *m, long edges) {
  size_t n = 16;
  while (n < (size_t)edges * 2)
    n *= 2;
  m->mask = n - 1;
  m->key = malloc(n * sizeof *m->key);
  m->tri = malloc(n * sizeof *m->tri);
  m->edge = malloc(n * sizeof *m->edge);
  if (!m->key || !m->tri || !m->edge)
    return 0;
  for (size_t i = 0; i < n; i++)
    m->key[i] = -1;
  return 1;
}

static size_t edge_slot(const edge_map_t *m, long key) {
  size_t h = ((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 20;
  while (m->key[h & m->mask] != -1 && m->key[h & m->mask] != key)
    h++;
  return h & m->mask;
}

static void edge_map_free(edge_map_t *m) {
  free(m->key);
  free(m->tri);
  free(m->edge);
}

static int build_error(const char *prefix, const char *what, long a, long b,
                       long base) {
  fprintf(stderr, "yada: %s: %s (points %ld and %ld)\n", prefix, what, a + base,
          b + base);
  return 0;
}

static int build(mesh_t *m, const input_t *in, const char *prefix,
                 double min_angle) {
  edge_map_t map;
  long n = in->num_nodes;
  if (!edge_map_init(&map, 3 * in->num_tris)) {
    edge_map_free(&map);
    fprintf(stderr, "yada: out of memory\n");
    return 0;
  }
  int ok = 1;
  for (long i = 0; ok && i < in->num_tris; i++) {
    long a = in->tris[i][0], b = in->tris[i][1], c = in->tris[i][2];
    double o = coord_orient(in->nodes[a], in->nodes[b], in->nodes[c]);
    if (o == 0) {
      ok = build_error(prefix, "degenerate triangle", a, b, in->base);
      break;
    }
    if (o < 0) {
      long t = b;
      b = c;
      c = t;
    }
    element_t *e = TM_MALLOC(sizeof *e);
    if (!e) {
      fprintf(stderr, "yada: out of memory\n");
      ok = 0;
      break;
    }
    element_init(e, 3, in->nodes[a], in->nodes[b], in->nodes[c]);
    long vs[3] = {a, b, c};
    for (long k = 0; k < 3 && ok; k++) {
      long from = vs[k], to = vs[(k + 1) % 3];
      size_t s = edge_slot(&map, from * n + to);
      if (map.key[s] != -1) {
        ok = build_error(prefix, "edge in two triangles with one orientation",
                         from, to, in->base);
        break;
      }
      map.key[s] = from * n + to;
      map.tri[s] = e;
      map.edge[s] = k;
      size_t back = edge_slot(&map, to * n + from);
      if (map.key[back] != -1) {
        e->nbr[k] = map.tri[back];
        map.tri[back]->nbr[map.edge[back]] = e;
      }
    }
    m->area += fabs(o) / 2;
    if (!m->root)
      m->root = e;
  }
  for (long i = 0; ok && i < in->num_segs; i++) {
    long a = in->segs[i][0], b = in->segs[i][1];
    size_t s = edge_slot(&map, a * n + b);
    if (map.key[s] == -1) {
      s = edge_slot(&map, b * n + a);
      long t = a;
      a = b;
      b = t;
    }
    if (map.key[s] == -1 || map.tri[s]->nbr[map.edge[s]]) {
      ok = build_error(prefix,
                       "segment is not an edge on the boundary of the "
                       "triangulation",
                       a, b, in->base);
      break;
    }
    element_t *seg = TM_MALLOC(sizeof *seg);
    if (!seg) {
      fprintf(stderr, "yada: out of memory\n");
      ok = 0;
      break;
    }
    element_init(seg, 2, in->nodes[a], in->nodes[b], in->nodes[b]);
    seg->nbr[0] = map.tri[s];
    map.tri[s]->nbr[map.edge[s]] = seg;
    m->perimeter +=
        hypot(in->nodes[b].x - in->nodes[a].x, in->nodes[b].y - in->nodes[a].y);
    m->num_segments++;
  }
  /* Every triangle edge has a neighbour now, or the boundary is open. */
  for (size_t s = 0; ok && s <= map.mask; s++)
    if (map.key[s] != -1 && !map.tri[s]->nbr[map.edge[s]])
      ok = build_error(prefix,
                       "edge on the boundary of the triangulation is not a "
                       "segment of the .poly file",
                       map.key[s] / n, map.key[s] % n, in->base);
  /* Encroachment, then the initial work. */
  for (size_t s = 0; ok && s <= map.mask; s++)
    if (map.key[s] != -1 && map.edge[s] == 0) {
      element_t *e = map.tri[s];
      element_update_encroached(e);
      m->num_triangles++;
      if (element_is_bad(e, min_angle)) {
        e->referenced = 1;
        m->num_bad++;
        if (!heap_insert(m->work, e)) {
          fprintf(stderr, "yada: out of memory\n");
          ok = 0;
        }
      }
    }
  edge_map_free(&map);
  return ok;
}

mesh_t *mesh_read(const char *prefix, double min_angle) {
  input_t in;
  memset(&in, 0, sizeof in);
  mesh_t *m = TM_MALLOC(sizeof *m);
  if (!m) {
    fprintf(stderr, "yada: out of memory\n");
    return NULL;
  }
  memset(m, 0, sizeof *m);
  m->work = heap_alloc(1024, element_heap_compare);
  int ok = m->work && read_nodes(&in, prefix) && read_elements(&in, prefix) &&
           read_segments(&in, prefix) && build(m, &in, prefix, min_angle);
  free(in.nodes);
  free(in.tris);
  free(in.segs);
  if (!ok)
    return NULL; /* the process exits; the pool is private */
  return m;
}

/* ---- The final check ----------------------------------------------------
 */

/* A set of element pointers (open addressing). */
typedef struct visited {
  size_t mask, count;
  const element_t **slot;
} visited_t;

static int visited_add(visited_t *v, const element_t *e) {
  if (2 * (v->count + 1) > v->mask + 1) {
    size_t n = 2 * (v->mask + 1);
    const element_t **s = calloc(n, sizeof *s);
    if (!s)
      return -1;
    for (size_t i = 0; i <= v->mask; i++)
      if (v->slot[i]) {
        size_t h = ((uintptr_t)v->slot[i] >> 4) * 0x9E3779B97F4A7C15ULL >> 16;
        while (s[h & (n - 1)])
          h++;
        s[h & (n - 1)] = v->slot[i];
      }
    free(v->slot);
    v->slot = s;
    v->mask = n - 1;
  }
  size_t h = ((uintptr_t)e >> 4) * 0x9E3779B97F4A7C15ULL >> 16;
  while (v->slot[h & v->mask]) {
    if (v->slot[h & v->mask] == e)
      return 0;
    h++;
  }
  v->slot[h & v->mask] = e;
  v->count++;
  return 1;
}

static int check_error(const char *what) {
  fprintf(stderr, "yada: check failed: %s\n", what);
  return 0;
}

int mesh_check(const mesh_t *m, double min_angle, long expected) {
  visited_t seen = {.mask = 1023, .count = 0};
  seen.slot = calloc(1024, sizeof *seen.slot);
  size_t cap = 1024, top = 0;
  const element_t **stack = malloc(cap * sizeof *stack);
  if (!seen.slot || !stack)
    return check_error("out of memory");
  int ok = 1;
  long triangles = 0, segments = 0, bad = 0;
  double area = 0, perimeter = 0, worst = 180;
  if (!m->root || m->root->garbage || m->root->num != 3)
    ok = check_error("the mesh root is not a live triangle");
  else {
    visited_add(&seen, m->root);
    stack[top++] = m->root;
  }
  while (ok && top > 0) {
    const element_t *e = stack[--top];
    triangles++;
    double o = coord_orient(e->v[0], e->v[1], e->v[2]);
    if (!(o > 0)) {
      ok = check_error("a triangle is degenerate or clockwise");
      break;
    }
    area += o / 2;
    if (e->min_angle < worst)
      worst = e->min_angle;
    if (element_is_bad(e, min_angle))
      bad++;
    for (long i = 0; i < 3 && ok; i++) {
      const element_t *n = e->nbr[i];
      coord_t a = e->v[i], b = e->v[(i + 1) % 3];
      if (!n || n->garbage) {
        ok = check_error("a triangle edge has no live neighbour");
      } else if (n->num == 2) {
        if (n->nbr[0] != e || !coord_equal(n->v[0], a) ||
            !coord_equal(n->v[1], b))
          ok = check_error("a segment and its triangle disagree");
        else {
          segments++;
          perimeter += hypot(b.x - a.x, b.y - a.y);
        }
      } else {
        long j = element_edge(n, b, a);
        if (j < 0 || n->nbr[j] != e)
          ok = check_error("two neighbouring triangles disagree");
        else {
          int added = visited_add(&seen, n);
          if (added < 0)
            ok = check_error("out of memory");
          else if (added) {
            if (top == cap) {
              cap *= 2;
              const element_t **s = realloc(stack, cap * sizeof *s);
              if (!s) {
                ok = check_error("out of memory");
                break;
              }
              stack = s;
            }
            stack[top++] = n;
          }
        }
      }
    }
  }
  free(stack);
  free(seen.slot);
  if (!ok)
    return 0;
  printf("Final mesh: %ld triangles, %ld boundary segments, smallest angle "
         "%.3f degrees\n",
         triangles, segments, worst);
  if (triangles != expected) {
    fprintf(stderr,
            "yada: check failed: %ld triangles reachable, %ld expected "
            "from the refinement\n",
            triangles, expected);
    return 0;
  }
  if (bad) {
    fprintf(stderr, "yada: check failed: %ld triangles still bad\n", bad);
    return 0;
  }
  if (fabs(area - m->area) > 1e-9 * m->area)
    return check_error("the mesh area changed");
  if (fabs(perimeter - m->perimeter) > 1e-9 * m->perimeter)
    return check_error("the boundary length changed");
  return 1;
}
