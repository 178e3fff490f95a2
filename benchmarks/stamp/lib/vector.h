/*
 * vector.h - a growing array of pointers (STAMP's vector_t). Growth uses
 * TM_MALLOC, so a vector may be shared and extended inside transactions.
 */
#ifndef STAMP_VECTOR_H
#define STAMP_VECTOR_H

#include "types.h"

typedef struct vector {
  long size;
  long capacity;
  void **elements;
} vector_t;

vector_t *vector_alloc(long initCapacity);
void vector_free(vector_t *v);
void *vector_at(vector_t *v, long i);            /* NULL if out of range */
bool_t vector_pushBack(vector_t *v, void *data); /* FALSE: out of memory */
void *vector_popBack(vector_t *v);               /* NULL if empty */
long vector_getSize(vector_t *v);
void vector_clear(vector_t *v);
/* Sorts by CMP (NULL: pointer values); not stable. */
void vector_sort(vector_t *v, stamp_cmp_t cmp);
/* Makes DST a copy of SRC; FALSE: out of memory. */
bool_t vector_copy(vector_t *dst, vector_t *src);

#endif /* STAMP_VECTOR_H */
