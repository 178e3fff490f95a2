/*
 * region.h - yada's refinement step (Ruppert's algorithm, as STAMP's
 * region.c): inside one transaction, a bad triangle's circumcenter is
 * located by walking from the triangle, the cavity of triangles whose
 * circumcircle holds it is grown, and the cavity is re-triangulated around
 * the new point. A circumcenter that lies beyond a boundary segment or
 * inside a segment's diametral circle is not inserted: the segment is split
 * at its midpoint instead (and the triangle tried again), as is a segment
 * a triangle encroaches.
 */
#ifndef YADA_REGION_H
#define YADA_REGION_H

#include "mesh.h"

#define REGION_MAX 4096

typedef struct region_edge {
  coord_t a, b;   /* the cavity lies left of a -> b */
  element_t *out; /* the triangle or segment beyond it */
} region_edge_t;

/* A refining thread's private scratch (never shared). */
typedef struct region {
  double min_angle;
  long num_cavity, num_border, num_fresh, num_bad;
  element_t *cavity[REGION_MAX];
  region_edge_t border[REGION_MAX];
  element_t *fresh[REGION_MAX];
  element_t *bad[REGION_MAX]; /* new bad triangles, marked referenced */
} region_t;

region_t *region_alloc(double min_angle);
void region_free(region_t *r);

/* Inside a transaction: refines triangle E of mesh M (if still live);
 * leaves the new bad triangles in r->bad. Returns the change in the number
 * of triangles. */
long region_refine(region_t *r, mesh_t *m, element_t *e);

#endif /* YADA_REGION_H */
