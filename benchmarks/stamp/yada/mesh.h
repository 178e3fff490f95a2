/*
 * mesh.h - yada's mesh: triangles and boundary segments (element.h) in the
 * pool, read from Triangle's files PREFIX.node, PREFIX.ele and PREFIX.poly
 * (as the STAMP distribution's 633.2 and ttimeu10000.2), the shared work
 * heap of bad triangles, and the final check.
 */
#ifndef YADA_MESH_H
#define YADA_MESH_H

#include "element.h"
#include "heap.h"

typedef struct mesh {
  element_t *root;    /* some live triangle (NULL while none is known) */
  heap_t *work;       /* bad triangles to refine */
  long num_triangles; /* at input */
  long num_segments;  /* at input */
  long num_bad;       /* bad triangles at input */
  double area;        /* of the input triangles */
  double perimeter;   /* of the input segments */
} mesh_t;

/* Reads PREFIX.{node,ele,poly} into a new mesh and fills its work heap with
 * the triangles that are bad for MIN_ANGLE; NULL after a message on stderr
 * if a file is unreadable or the mesh malformed (an edge on the boundary
 * without a segment, an edge shared by more than two triangles, ...). */
mesh_t *mesh_read(const char *prefix, double min_angle);

/* Walks the final mesh from its root: neighbours consistent both ways,
 * triangles counter-clockwise and non-degenerate, none bad for MIN_ANGLE,
 * EXPECTED triangles, area and perimeter as at input. Prints the counts;
 * returns 1 if all holds, else 0 after a message on stderr. */
int mesh_check(const mesh_t *m, double min_angle, long expected);

#endif /* YADA_MESH_H */
