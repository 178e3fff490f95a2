/* The bit set: see bitmap.h. */
#include "bitmap.h"

#include "tm.h"

#define WORD_BITS ((long)(8 * sizeof(ulong_t)))

bitmap_t *bitmap_alloc(long numBit) {
  if (numBit < 0)
    return NULL;
  bitmap_t *b = TM_MALLOC(sizeof *b);
  if (!b)
    return NULL;
  b->numBit = numBit;
  b->numWord = (numBit + WORD_BITS - 1) / WORD_BITS;
  b->bits = TM_MALLOC((size_t)(b->numWord ? b->numWord : 1) * sizeof(ulong_t));
  if (!b->bits) {
    TM_FREE(b);
    return NULL;
  }
  bitmap_clearAll(b);
  return b;
}

void bitmap_free(bitmap_t *b) {
  TM_FREE(b->bits);
  TM_FREE(b);
}

bool_t bitmap_set(bitmap_t *b, long i) {
  if (i < 0 || i >= b->numBit)
    return FALSE;
  b->bits[i / WORD_BITS] |= 1UL << (i % WORD_BITS);
  return TRUE;
}

bool_t bitmap_clear(bitmap_t *b, long i) {
  if (i < 0 || i >= b->numBit)
    return FALSE;
  b->bits[i / WORD_BITS] &= ~(1UL << (i % WORD_BITS));
  return TRUE;
}

void bitmap_clearAll(bitmap_t *b) {
  for (long w = 0; w < b->numWord; w++)
    b->bits[w] = 0;
}

bool_t bitmap_isSet(bitmap_t *b, long i) {
  return i >= 0 && i < b->numBit &&
         ((b->bits[i / WORD_BITS] >> (i % WORD_BITS)) & 1UL);
}

long bitmap_findClear(bitmap_t *b, long start) {
  for (long i = start < 0 ? 0 : start; i < b->numBit; i++)
    if (!bitmap_isSet(b, i))
      return i;
  return -1;
}

long bitmap_findSet(bitmap_t *b, long start) {
  for (long i = start < 0 ? 0 : start; i < b->numBit; i++)
    if (bitmap_isSet(b, i))
      return i;
  return -1;
}

long bitmap_getNumSet(bitmap_t *b) {
  long n = 0;
  for (long w = 0; w < b->numWord; w++)
    n += __builtin_popcountl(b->bits[w]);
  return n;
}

long bitmap_getNumClear(bitmap_t *b) { return b->numBit - bitmap_getNumSet(b); }

void bitmap_copy(bitmap_t *dst, bitmap_t *src) {
  for (long w = 0; w < src->numWord && w < dst->numWord; w++)
    dst->bits[w] = src->bits[w];
}

void bitmap_toggleAll(bitmap_t *b) {
  for (long w = 0; w < b->numWord; w++)
    b->bits[w] = ~b->bits[w];
  long extra = b->numBit % WORD_BITS;
  if (extra && b->numWord)
    b->bits[b->numWord - 1] &= (1UL << extra) - 1;
}
