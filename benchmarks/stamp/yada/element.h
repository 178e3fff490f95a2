/*
 * element.h - yada's mesh elements: triangles, and the boundary segments
 * that close the mesh (2-vertex elements). All live in the pool.
 *
 * A triangle's vertices are counter-clockwise; nbr[i] is the element across
 * its edge (v[i], v[i+1]): a triangle, or the segment lying on that edge.
 * A segment's nbr[0] is the one triangle on its inner side.
 */
#ifndef YADA_ELEMENT_H
#define YADA_ELEMENT_H

typedef struct coord {
  double x, y;
} coord_t;

typedef struct element {
  coord_t v[3];
  long num;               /* 3: triangle, 2: boundary segment */
  coord_t center;         /* triangle: circumcenter; segment: midpoint */
  double min_angle;       /* triangle: smallest angle, degrees */
  struct element *nbr[3]; /* see above */
  long encroached;        /* triangle: an edge that is a segment whose
                             diametral circle holds the opposite vertex,
                             else -1 */
  int garbage;            /* removed from the mesh */
  int referenced;         /* held by the work heap or a pending insert */
} element_t;

/* Geometry (exact formulas in double precision). */
double coord_orient(coord_t a, coord_t b, coord_t c); /* > 0: ccw */
/* > 0 when D is strictly inside the circle through A, B, C (ccw). */
double coord_incircle(coord_t a, coord_t b, coord_t c, coord_t d);
/* Whether Q is strictly inside the circle with diameter AB. */
int coord_encroaches(coord_t q, coord_t a, coord_t b);
int coord_equal(coord_t a, coord_t b);

/* Fills a triangle (A, B, C ccw) or a segment (C unused): vertices, center,
 * min angle; neighbours NULL, encroached -1, flags clear. */
void element_init(element_t *e, long num, coord_t a, coord_t b, coord_t c);

/* Recomputes a triangle's `encroached` from its neighbours. */
void element_update_encroached(element_t *e);

/* Whether a triangle needs refinement for the angle bound (degrees). */
int element_is_bad(const element_t *e, double min_angle);

/* The index of the triangle's edge running from A to B, or -1. */
long element_edge(const element_t *e, coord_t a, coord_t b);

/* Heap order (STAMP's element_heapCompare role): encroached triangles
 * first, then the smaller minimum angle. */
long element_heap_compare(const void *a, const void *b);

#endif /* YADA_ELEMENT_H */
