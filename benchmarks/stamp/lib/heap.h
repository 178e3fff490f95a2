/*
 * heap.h - a binary max-heap of pointers (STAMP's heap_t, a priority
 * queue): heap_remove returns the element the comparator ranks highest.
 * The array grows through TM_MALLOC, so a heap may be shared.
 */
#ifndef STAMP_HEAP_H
#define STAMP_HEAP_H

#include "types.h"

typedef struct heap {
  void **elements; /* elements[1..size]: 1-based */
  long size;
  long capacity;
  stamp_cmp_t cmp;
} heap_t;

heap_t *heap_alloc(long initCapacity, stamp_cmp_t cmp);
void heap_free(heap_t *h);
bool_t heap_insert(heap_t *h, void *data); /* FALSE: out of memory */
void *heap_remove(heap_t *h);              /* NULL if empty */
long heap_getSize(heap_t *h);
bool_t heap_isValid(heap_t *h);

#endif /* STAMP_HEAP_H */
