/* pair_t: see pair.h. */
#include "pair.h"

#include "tm.h"

pair_t *pair_alloc(void *first, void *second) {
  pair_t *p = TM_MALLOC(sizeof *p);
  if (p) {
    p->first = first;
    p->second = second;
  }
  return p;
}

void pair_free(pair_t *p) { TM_FREE(p); }

void pair_swap(pair_t *p) {
  void *t = p->first;
  p->first = p->second;
  p->second = t;
}
