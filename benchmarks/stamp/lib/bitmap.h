/*
 * bitmap.h - a fixed-size bit set (STAMP's bitmap_t), words from
 * TM_MALLOC, usable inside transactions.
 */
#ifndef STAMP_BITMAP_H
#define STAMP_BITMAP_H

#include "types.h"

typedef struct bitmap {
  long numBit;
  long numWord;
  ulong_t *bits;
} bitmap_t;

bitmap_t *bitmap_alloc(long numBit); /* all clear */
void bitmap_free(bitmap_t *b);
bool_t bitmap_set(bitmap_t *b, long i);   /* FALSE if I out of range */
bool_t bitmap_clear(bitmap_t *b, long i); /* FALSE if I out of range */
void bitmap_clearAll(bitmap_t *b);
bool_t bitmap_isSet(bitmap_t *b, long i);
/* The first clear (set) bit at or after START, or -1. */
long bitmap_findClear(bitmap_t *b, long start);
long bitmap_findSet(bitmap_t *b, long start);
long bitmap_getNumClear(bitmap_t *b);
long bitmap_getNumSet(bitmap_t *b);
void bitmap_copy(bitmap_t *dst, bitmap_t *src); /* same numBit */
void bitmap_toggleAll(bitmap_t *b);

#endif /* STAMP_BITMAP_H */
