/* The growing array: see vector.h. */
#include "vector.h"

#include "tm.h"

vector_t *vector_alloc(long initCapacity) {
  vector_t *v = TM_MALLOC(sizeof *v);
  if (!v)
    return NULL;
  v->capacity = initCapacity > 1 ? initCapacity : 2;
  v->elements = TM_MALLOC((size_t)v->capacity * sizeof(void *));
  if (!v->elements) {
    TM_FREE(v);
    return NULL;
  }
  v->size = 0;
  return v;
}

void vector_free(vector_t *v) {
  TM_FREE(v->elements);
  TM_FREE(v);
}

void *vector_at(vector_t *v, long i) {
  return i >= 0 && i < v->size ? v->elements[i] : NULL;
}

static bool_t reserve(vector_t *v, long capacity) {
  if (capacity <= v->capacity)
    return TRUE;
  void **elements = TM_MALLOC((size_t)capacity * sizeof(void *));
  if (!elements)
    return FALSE;
  for (long i = 0; i < v->size; i++)
    elements[i] = v->elements[i];
  TM_FREE(v->elements);
  v->elements = elements;
  v->capacity = capacity;
  return TRUE;
}

bool_t vector_pushBack(vector_t *v, void *data) {
  if (v->size == v->capacity && !reserve(v, v->capacity * 2))
    return FALSE;
  v->elements[v->size++] = data;
  return TRUE;
}

void *vector_popBack(vector_t *v) {
  return v->size > 0 ? v->elements[--v->size] : NULL;
}

long vector_getSize(vector_t *v) { return v->size; }
void vector_clear(vector_t *v) { v->size = 0; }

static long compare(stamp_cmp_t cmp, const void *a, const void *b) {
  if (cmp)
    return cmp(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Heapsort: in place, O(n log n) worst case, no recursion. */
static void sift_down(void **a, long i, long n, stamp_cmp_t cmp) {
  void *x = a[i];
  for (;;) {
    long c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && compare(cmp, a[c + 1], a[c]) > 0)
      c++;
    if (compare(cmp, a[c], x) <= 0)
      break;
    a[i] = a[c];
    i = c;
  }
  a[i] = x;
}

void vector_sort(vector_t *v, stamp_cmp_t cmp) {
  void **a = v->elements;
  long n = v->size;
  for (long i = n / 2 - 1; i >= 0; i--)
    sift_down(a, i, n, cmp);
  for (long end = n - 1; end > 0; end--) {
    void *t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(a, 0, end, cmp);
  }
}

bool_t vector_copy(vector_t *dst, vector_t *src) {
  if (!reserve(dst, src->size))
    return FALSE;
  for (long i = 0; i < src->size; i++)
    dst->elements[i] = src->elements[i];
  dst->size = src->size;
  return TRUE;
}
