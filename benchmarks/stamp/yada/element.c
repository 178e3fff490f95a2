/* yada's mesh elements: see element.h. */
#include "element.h"

#include <math.h>

#include "tm.h"

double coord_orient(coord_t a, coord_t b, coord_t c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

double coord_incircle(coord_t a, coord_t b, coord_t c, coord_t d) {
  double adx = a.x - d.x, ady = a.y - d.y;
  double bdx = b.x - d.x, bdy = b.y - d.y;
  double cdx = c.x - d.x, cdy = c.y - d.y;
  double ad = adx * adx + ady * ady;
  double bd = bdx * bdx + bdy * bdy;
  double cd = cdx * cdx + cdy * cdy;
  return adx * (bdy * cd - bd * cdy) - ady * (bdx * cd - bd * cdx) +
         ad * (bdx * cdy - bdy * cdx);
}

int coord_encroaches(coord_t q, coord_t a, coord_t b) {
  return (a.x - q.x) * (b.x - q.x) + (a.y - q.y) * (b.y - q.y) < 0;
}

int coord_equal(coord_t a, coord_t b) { return a.x == b.x && a.y == b.y; }

/* The angle at P between the rays to Q and R, in degrees. */
static double angle_at(coord_t p, coord_t q, coord_t r) {
  double ux = q.x - p.x, uy = q.y - p.y, vx = r.x - p.x, vy = r.y - p.y;
  return atan2(fabs(ux * vy - uy * vx), ux * vx + uy * vy) * (180.0 / M_PI);
}

void element_init(element_t *e, long num, coord_t a, coord_t b, coord_t c) {
  e->num = num;
  e->v[0] = a;
  e->v[1] = b;
  e->v[2] = num == 3 ? c : b;
  e->nbr[0] = e->nbr[1] = e->nbr[2] = NULL;
  e->encroached = -1;
  e->garbage = 0;
  e->referenced = 0;
  if (num == 2) {
    e->center = (coord_t){(a.x + b.x) / 2, (a.y + b.y) / 2};
    e->min_angle = 180.0;
    return;
  }
  /* Circumcenter relative to A. */
  double bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y;
  double d = 2 * (bx * cy - by * cx);
  double b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  e->center =
      (coord_t){a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d};
  double m = angle_at(a, b, c);
  double mb = angle_at(b, c, a);
  double mc = angle_at(c, a, b);
  if (mb < m)
    m = mb;
  if (mc < m)
    m = mc;
  e->min_angle = m;
}

void element_update_encroached(element_t *e) {
  e->encroached = -1;
  for (long i = 0; i < 3; i++) {
    element_t *n = e->nbr[i];
    if (n && n->num == 2 &&
        coord_encroaches(e->v[(i + 2) % 3], e->v[i], e->v[(i + 1) % 3])) {
      e->encroached = i;
      return;
    }
  }
}

int element_is_bad(const element_t *e, double min_angle) {
  return e->num == 3 && (e->encroached >= 0 || e->min_angle < min_angle);
}

long element_edge(const element_t *e, coord_t a, coord_t b) {
  for (long i = 0; i < 3; i++)
    if (coord_equal(e->v[i], a) && coord_equal(e->v[(i + 1) % 3], b))
      return i;
  return -1;
}

long element_heap_compare(const void *pa, const void *pb) {
  const element_t *a = pa, *b = pb;
  int ea = a->encroached >= 0, eb = b->encroached >= 0;
  if (ea != eb)
    return ea - eb;
  if (a->min_angle < b->min_angle)
    return 1;
  return a->min_angle > b->min_angle ? -1 : 0;
}
