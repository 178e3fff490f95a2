/* The binary heap: see heap.h. */
#include "heap.h"

#include "tm.h"

heap_t *heap_alloc(long initCapacity, stamp_cmp_t cmp) {
  heap_t *h = TM_MALLOC(sizeof *h);
  if (!h)
    return NULL;
  h->capacity = initCapacity > 1 ? initCapacity : 2;
  h->elements = TM_MALLOC((size_t)(h->capacity + 1) * sizeof(void *));
  if (!h->elements) {
    TM_FREE(h);
    return NULL;
  }
  h->size = 0;
  h->cmp = cmp;
  return h;
}

void heap_free(heap_t *h) {
  TM_FREE(h->elements);
  TM_FREE(h);
}

long heap_getSize(heap_t *h) { return h->size; }

static long compare(heap_t *h, const void *a, const void *b) {
  if (h->cmp)
    return h->cmp(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

bool_t heap_insert(heap_t *h, void *data) {
  if (h->size == h->capacity) {
    long capacity = h->capacity * 2;
    void **elements = TM_MALLOC((size_t)(capacity + 1) * sizeof(void *));
    if (!elements)
      return FALSE;
    for (long i = 1; i <= h->size; i++)
      elements[i] = h->elements[i];
    TM_FREE(h->elements);
    h->elements = elements;
    h->capacity = capacity;
  }
  long i = ++h->size;
  while (i > 1 && compare(h, h->elements[i / 2], data) < 0) {
    h->elements[i] = h->elements[i / 2];
    i /= 2;
  }
  h->elements[i] = data;
  return TRUE;
}

void *heap_remove(heap_t *h) {
  if (h->size == 0)
    return NULL;
  void *top = h->elements[1];
  void *last = h->elements[h->size--];
  long i = 1;
  for (;;) {
    long child = 2 * i;
    if (child > h->size)
      break;
    if (child < h->size &&
        compare(h, h->elements[child + 1], h->elements[child]) > 0)
      child++;
    if (compare(h, h->elements[child], last) <= 0)
      break;
    h->elements[i] = h->elements[child];
    i = child;
  }
  if (h->size > 0)
    h->elements[i] = last;
  return top;
}

bool_t heap_isValid(heap_t *h) {
  for (long i = 2; i <= h->size; i++)
    if (compare(h, h->elements[i / 2], h->elements[i]) < 0)
      return FALSE;
  return TRUE;
}
