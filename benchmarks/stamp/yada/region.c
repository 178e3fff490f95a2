/* yada's refinement step: see region.h. */
#include "region.h"

#include <stdio.h>
#include <stdlib.h>

#include "tm.h"

region_t *region_alloc(double min_angle) {
  region_t *r = malloc(sizeof *r);
  if (r)
    r->min_angle = min_angle;
  return r;
}

void region_free(region_t *r) { free(r); }

/* Stops the program (called inside transactions: uninstrumented). */
static PTM_PURE void region_fatal(const char *what) {
  fprintf(stderr, "yada: %s\n", what);
  exit(1);
}

static int in_cavity(const region_t *r, const element_t *t) {
  for (long i = 0; i < r->num_cavity; i++)
    if (r->cavity[i] == t)
      return 1;
  return 0;
}

static void add_border(region_t *r, coord_t a, coord_t b, element_t *out) {
  if (r->num_border == REGION_MAX)
    region_fatal("cavity border larger than REGION_MAX");
  r->border[r->num_border++] = (region_edge_t){a, b, out};
}

/* Grows the cavity of point P from triangle START (which holds P). SPLIT is
 * the segment P splits, or NULL when P is a circumcenter: then a border
 * segment whose diametral circle holds P is returned (nothing changed). */
static element_t *grow(region_t *r, element_t *start, coord_t p,
                       element_t *split) {
  r->num_cavity = 1;
  r->num_border = 0;
  r->cavity[0] = start;
  for (long k = 0; k < r->num_cavity; k++) {
    element_t *t = r->cavity[k];
    for (long i = 0; i < 3; i++) {
      element_t *n = t->nbr[i];
      coord_t a = t->v[i], b = t->v[(i + 1) % 3];
      if (n->num == 2) {
        if (n == split)
          continue;
        if (!split && coord_encroaches(p, a, b))
          return n;
        add_border(r, a, b, n);
      } else if (in_cavity(r, n)) {
        continue;
      } else if (coord_incircle(n->v[0], n->v[1], n->v[2], p) > 0) {
        if (r->num_cavity == REGION_MAX)
          region_fatal("cavity larger than REGION_MAX");
        r->cavity[r->num_cavity++] = n;
      } else {
        add_border(r, a, b, n);
      }
    }
  }
  return NULL;
}

static element_t *new_element(void) {
  element_t *e = TM_MALLOC(sizeof *e);
  if (!e)
    region_fatal("out of memory for mesh elements");
  return e;
}

/* A new boundary segment A -> B on triangle T's edge. */
static element_t *new_segment(coord_t a, coord_t b, element_t *t) {
  element_t *s = new_element();
  element_init(s, 2, a, b, b);
  s->nbr[0] = t;
  return s;
}

/* Replaces the cavity by the triangles joining P to its border edges (and
 * SPLIT, if any, by its two halves). Returns the change in triangles. */
static long retriangulate(region_t *r, mesh_t *m, coord_t p, element_t *split) {
  r->num_fresh = r->num_border;
  for (long k = 0; k < r->num_border; k++) {
    region_edge_t *edge = &r->border[k];
    element_t *t = new_element();
    element_init(t, 3, edge->a, edge->b, p);
    t->nbr[0] = edge->out;
    if (edge->out->num == 2)
      edge->out->nbr[0] = t;
    else
      edge->out->nbr[element_edge(edge->out, edge->b, edge->a)] = t;
    r->fresh[k] = t;
  }
  for (long k = 0; k < r->num_fresh; k++) {
    element_t *t = r->fresh[k];
    element_t *next = NULL, *prev = NULL;
    for (long j = 0; j < r->num_fresh; j++) {
      if (coord_equal(r->fresh[j]->v[0], t->v[1]))
        next = r->fresh[j];
      if (coord_equal(r->fresh[j]->v[1], t->v[0]))
        prev = r->fresh[j];
    }
    /* Only the halves of a split segment have no triangle beyond. */
    t->nbr[1] = next ? next : new_segment(t->v[1], p, t);
    t->nbr[2] = prev ? prev : new_segment(p, t->v[0], t);
  }
  for (long k = 0; k < r->num_cavity; k++) {
    element_t *t = r->cavity[k];
    t->garbage = 1;
    if (m->root == t)
      m->root = NULL;
    if (!t->referenced)
      TM_FREE(t);
  }
  if (split) {
    split->garbage = 1;
    TM_FREE(split);
  }
  for (long k = 0; k < r->num_fresh; k++) {
    element_t *t = r->fresh[k];
    if (!m->root)
      m->root = t;
    element_update_encroached(t);
    if (element_is_bad(t, r->min_angle)) {
      if (r->num_bad == REGION_MAX)
        region_fatal("more than REGION_MAX new bad triangles");
      t->referenced = 1;
      r->bad[r->num_bad++] = t;
    }
  }
  return r->num_fresh - r->num_cavity;
}

static long split_segment(region_t *r, mesh_t *m, element_t *s) {
  coord_t p = s->center;
  grow(r, s->nbr[0], p, s);
  return retriangulate(r, m, p, s);
}

/* The triangle holding P, walking from T; or, if P lies beyond a boundary
 * segment, that segment in *BLOCKED. */
static element_t *locate(element_t *t, coord_t p, element_t **blocked) {
  *blocked = NULL;
  for (long steps = 0;; steps++) {
    long i = 0;
    while (i < 3 && coord_orient(t->v[i], t->v[(i + 1) % 3], p) >= 0)
      i++;
    if (i == 3)
      return t;
    if (t->nbr[i]->num == 2) {
      *blocked = t->nbr[i];
      return NULL;
    }
    t = t->nbr[i];
    if (steps > (1L << 26))
      region_fatal("point location does not terminate");
  }
}

long region_refine(region_t *r, mesh_t *m, element_t *e) {
  long delta = 0;
  r->num_bad = 0;
  while (!e->garbage) {
    if (e->encroached >= 0) {
      delta += split_segment(r, m, e->nbr[e->encroached]);
      continue;
    }
    coord_t p = e->center;
    element_t *blocked;
    element_t *t = locate(e, p, &blocked);
    if (!t) {
      delta += split_segment(r, m, blocked);
      continue;
    }
    element_t *encroached = grow(r, t, p, NULL);
    if (encroached) {
      delta += split_segment(r, m, encroached);
      continue;
    }
    delta += retriangulate(r, m, p, NULL);
    if (!e->garbage && element_is_bad(e, r->min_angle)) {
      /* Rounding kept E out of its own cavity: try it again later. */
      if (r->num_bad == REGION_MAX)
        region_fatal("more than REGION_MAX new bad triangles");
      e->referenced = 1;
      r->bad[r->num_bad++] = e;
    }
    break;
  }
  return delta;
}
